"""Stage #1: a CandidateDraftBatch becomes draft candidates and an adjudication task.

The batch must echo the task and binding it answers; the turns it came from must still have
the revisions the task was cut from. Statements are assessed by the host (model statements are
`unverified`); a candidate citing an unknown evidence id or repeating a statement id is
rejected alone. Claim and submit happen in one step for the agent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from git_memory.contracts.candidate import EntryPayload
from git_memory.contracts.canonical import digest
from git_memory.contracts.extraction import CandidateDraftBatch, DraftCandidate
from git_memory.contracts.host_records import CatalogItem, RecallRecord
from git_memory.contracts.stage import DraftsOutcome, RejectedCandidate
from git_memory.errors import GitMemoryError
from git_memory.extract import artifacts
from git_memory.extract.adjudication_task import build_adjudication_task
from git_memory.extract.assess import (
    CandidateRejected,
    CitingStatement,
    assess_statements,
    cited,
)
from git_memory.extract.evidence import display
from git_memory.extract.foreign_evidence import refuse_foreign
from git_memory.extract.observed_support import observed_support
from git_memory.extract.private_text import without_homes
from git_memory.extract.quotes import Located, TurnSource, locate_quotes
from git_memory.extract.staging import claim_or_replay, source_is_current, submit_or_release
from git_memory.store.candidates import (
    Assessment,
    EvidenceRef,
    add_evidence_refs,
    bump_candidate_generation,
    insert_candidate,
    set_assessment,
)
from git_memory.store.chunks import set_chunk_status
from git_memory.store.db import StateDB
from git_memory.store.session import Workspace


def load_catalog(record: RecallRecord) -> dict[str, CatalogItem]:
    """The host-side catalog of a recalled task, by evidence id."""
    return {item.evidence_id: item for item in record.catalog}


# (candidate number from 1, statement id) -> claim support. Only in-process extractors whose
# statements come from fixed renderers pass one; a staged document never can (its statements
# are the host's typed facts only where they are, word for word, what the host's own
# renderers wrote from the chunk: `builtin/marks.py`).
SupportOf = Callable[[int, str], str]


def stage_drafts(
    workspace: Workspace,
    batch: CandidateDraftBatch,
    *,
    claim_support: SupportOf | None = None,
    turns: TurnSource | None = None,
    record: RecallRecord | None = None,
) -> DraftsOutcome:
    """Submit a draft batch; returns the stored outcome (replayed on identical bytes).
    `turns`: the cited sessions' turns when the caller already read them; `record`: the
    task's private record when the caller holds it (an in-process runner that planned the
    task in this run), else it is read from the state home."""
    if record is None or record.task.task_id != batch.task_id:
        record = artifacts.load_recall(workspace.worktree.state_home, batch.task_id)
    if batch.binding != record.task.binding:
        raise GitMemoryError(
            "GM_BINDING_DRIFT",
            f"the batch's binding differs from task {batch.task_id!r}",
            hint="echo the task's `binding` exactly as recall returned it",
        )
    refuse_foreign(workspace, record, batch)
    response_digest = digest(batch.to_json())
    token = claim_or_replay(workspace, batch.task_id, response_digest)
    if token is not None:
        read = turns.turns if turns is not None else None
        source_is_current(workspace, batch.task_id, record.turns, read)
    result = submit_or_release(
        workspace,
        batch.task_id,
        token,
        response_digest,
        lambda db, stored: _apply(
            workspace, db, batch, record, claim_support, turns=turns
        ).to_json(),
    )
    return DraftsOutcome.model_validate(result.outcome)


Kept = tuple[int, DraftCandidate, list[Assessment]]


def _apply(
    workspace: Workspace,
    db: StateDB,
    batch: CandidateDraftBatch,
    record: RecallRecord,
    claim_support: SupportOf | None,
    *,
    turns: TurnSource | None = None,
) -> DraftsOutcome:
    catalog = load_catalog(record)
    readable = [without_homes(draft) for draft in batch.candidates]  # no home, no user name
    if claim_support is None and record.observed:
        # A `builtinDrafts` statement staged as it was handed out: the host's own typed fact.
        claim_support = observed_support(readable, record.observed)
    kept, rejected = _assess_all(readable, catalog, claim_support)
    if batch.candidates and not kept:
        raise GitMemoryError(
            "GM_NO_CITABLE_STATEMENTS",
            "no candidate of the batch could be kept: every one cites unknown evidence ids or "
            "repeats a statement id",
            hint="cite only evidenceIds of the task's evidenceCatalog; stage again",
            details={"rejected": [r.to_json() for r in rejected]},
        )
    quoted = locate_quotes(workspace, record, catalog, [draft for _, draft, _ in kept], turns)
    candidate_ids = [
        _insert(workspace, db, batch.task_id, record, kept=one, quotes=quotes)
        for one, quotes in zip(kept, quoted, strict=True)
    ]
    set_chunk_status(db, record.chunk_ref, "drafted" if kept else "extracted")
    bump_candidate_generation(db, workspace.owner)
    drafts = [(cid, draft) for cid, (_, draft, _) in zip(candidate_ids, kept, strict=True)]
    return DraftsOutcome(
        task_id=batch.task_id,
        candidate_ids=candidate_ids,
        rejected=rejected,
        no_op=not kept,
        adjudication_task=build_adjudication_task(workspace, db, batch, drafts) if kept else None,
    )


def _assess_all(
    candidates: list[DraftCandidate],
    catalog: dict[str, CatalogItem],
    claim_support: SupportOf | None,
) -> tuple[list[Kept], list[RejectedCandidate]]:
    kept: list[Kept] = []
    rejected: list[RejectedCandidate] = []
    for number, draft in enumerate(candidates, start=1):
        try:
            support = None if claim_support is None else _support_for(claim_support, number)
            found = assess_statements(draft.statements, catalog, support_of=support)
        except CandidateRejected as refusal:
            rejected.append(
                RejectedCandidate(candidate=number, reason=refusal.reason, detail=refusal.detail)
            )
            continue
        if not found:
            rejected.append(RejectedCandidate(candidate=number, reason="no-statements", detail=""))
            continue
        kept.append((number, draft, found))
    return kept, rejected


def _support_for(claim_support: SupportOf, number: int) -> Callable[[str], str]:
    return lambda statement_id: claim_support(number, statement_id)


def _insert(
    workspace: Workspace,
    db: StateDB,
    task_id: str,
    record: RecallRecord,
    *,
    kept: Kept,
    quotes: Located,
) -> str:
    number, draft, found = kept
    candidate_id = f"{task_id}-c{number}"
    payload = EntryPayload(**dict(draft), candidate_kind="entry", task_id=task_id)
    insert_candidate(
        db,
        candidate_id=candidate_id,
        owner=workspace.owner,
        kind="entry",
        payload=payload.to_json(),
        content=draft.content,
        chunk_ref=record.chunk_ref,
        task_id=task_id,
    )
    refs = evidence_refs_for(record, draft.statements, quotes)
    add_evidence_refs(db, candidate_id, refs, task_id=task_id)
    for assessment in found:
        set_assessment(db, candidate_id, assessment)
    return candidate_id


def evidence_refs_for(
    record: RecallRecord, statements: Sequence[CitingStatement], quotes: Located | None = None
) -> list[EvidenceRef]:
    """EvidenceRef rows of assessed statements; `detail` is the public pointer (+ display,
    excerpt and, for turns, the turn's start time that becomes an `occurred` date, and the
    quoted words found in the turn with their origin)."""
    catalog = load_catalog(record)
    turns = {t.turn_index: t for t in record.turns}
    refs = []
    for statement in statements:
        for item in cited(statement, catalog):
            detail: dict[str, Any] = {**item.pointer, "display": display(item.pointer)}
            turn = turns.get(int(item.pointer["turnIndex"])) if item.kind == "turn" else None
            if turn is not None:
                detail.update(started=turn.started, excerpt=turn.excerpt)
            shown = (quotes or {}).get(statement.statement_id, {}).get(item.evidence_id)
            if shown:
                detail["quotes"] = [quote.to_json() for quote in shown]
            refs.append(
                EvidenceRef(
                    statement_id=statement.statement_id,
                    evidence_id=item.evidence_id,
                    pointer_digest=item.pointer_digest,
                    session_key=turn.session_key if turn else record.session_key,
                    turn_key=turn.turn_key if turn else None,
                    revision=turn.revision if turn else None,
                    relation=",".join(item.relations),
                    strength=item.strength,
                    limitations=list(item.limitations),
                    detail=detail,
                )
            )
    return refs
