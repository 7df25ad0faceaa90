"""The claim support of a staged batch whose statements the host wrote itself: a task's
`builtinDrafts` (`builtin/marks.py`) copied into the batch as they were handed out."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from git_memory.contracts.extraction import DraftCandidate
from git_memory.contracts.host_records import ObservedStatement
from git_memory.extract.builtin.renderers import verify_typed_fact


def observed_support(
    candidates: Sequence[DraftCandidate], observed: Sequence[ObservedStatement]
) -> Callable[[int, str], str]:
    """(candidate number from 1, statement id) → claim support: `typed-fact` for a statement
    staged as a `builtinDrafts` statement was handed out (the same text, the same evidence
    ids) whose renderer still makes that text of its parameters; `unverified` for any other."""
    known = {
        (one.text, frozenset(one.evidence_ids))
        for one in observed
        if verify_typed_fact(one.renderer, one.text, one.parameters)
    }

    def claim_support(number: int, statement_id: str) -> str:
        for statement in candidates[number - 1].statements:
            if statement.statement_id == statement_id:
                key = (statement.text, frozenset(statement.evidence_ids))
                return "typed-fact" if key in known else "unverified"
        return "unverified"

    return claim_support
