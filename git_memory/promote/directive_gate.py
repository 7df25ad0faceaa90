"""The directive gate of `prepare`: an instruction to agents is written only once confirmed.

Review shows each directive of a candidate's content (`lint.directives`); the person confirms
it explicitly, and the PrepareRequest carries the codes they confirmed
(`candidates[].confirmedDirectives`). A candidate whose content holds a directive not listed
there is refused with `GM_DIRECTIVE_UNCONFIRMED`, naming each one, before anything is planned.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from git_memory.contracts.promotion import PrepareCandidate
from git_memory.errors import GitMemoryError
from git_memory.lint.directives import lint_directives


def unconfirmed_directives(
    items: Sequence[PrepareCandidate], contents: Sequence[str]
) -> list[dict[str, Any]]:
    """Each directive of each content that its candidate's confirmation does not list."""
    found = []
    for item, content in zip(items, contents, strict=True):
        confirmed = set(item.confirmed_directives or ())
        found += [
            {
                "candidateId": item.candidate_id,
                "code": f.code,
                "line": f.line,
                "message": f.message,
                "excerpt": f.excerpt,
            }
            for f in lint_directives(content)
            if f.code not in confirmed
        ]
    return found


def require_confirmed(items: Sequence[PrepareCandidate], contents: Sequence[str]) -> None:
    """`GM_DIRECTIVE_UNCONFIRMED` when a content holds a directive no one confirmed."""
    found = unconfirmed_directives(items, contents)
    if not found:
        return
    first = found[0]
    raise GitMemoryError(
        "GM_DIRECTIVE_UNCONFIRMED",
        f"candidate {first['candidateId']!r} line {first['line']}: {first['code']} "
        f"{first['message']}: {first['excerpt']}",
        hint="run `git memory review` and confirm the instruction explicitly, or list its code "
        "in candidates[].confirmedDirectives of the prepare request once a person has read it",
        details={"directives": found},
    )
