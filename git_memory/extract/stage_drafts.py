"""Stage #1: a CandidateDraftBatch becomes draft candidates and an adjudication task.

The batch must echo the task and binding it answers; the turns it came from must still have
the revisions the task was cut from. Statements are assessed by the host (model statements are
`unverified`); a candidate citing an unknown evidence id or repeating a statement id is
rejected alone. Claim and submit happen in one step for the agent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from git_memory.contracts.canonical import digest
from git_memory.contracts.extraction import CandidateDraftBatch, DraftCandidate, ExtractionTask
from git_memory.errors import GitMemoryError
from git_memory.extract import artifacts
from git_memory.extract.adjudication_task import build_adjudication_task
from git_memory.extract.assess import (
    Assessment,
    CandidateRejected,
    DraftStatement,
    assess_statements,
)
from git_memory.extract.evidence import CatalogItem, display
from git_memory.extract.quotes import Located, TurnSource, locate_quotes
from git_memory.extract.staging import claim_or_replay, source_is_current, submit_or_release
from git_memory.store.candidates import Assessment as StoredAssessment
from git_memory.store.candidates import (
    EvidenceRef,
    add_evidence_refs,
    bump_candidate_generation,
    insert_candidate,
    set_assessment,
)
from git_memory.store.chunks import set_chunk_status
from git_memory.store.db import StateDB
from git_memory.store.session import Workspace


def load_catalog(record: dict[str, Any]) -> dict[str, CatalogItem]:
    """The host-side catalog of a recalled task, by evidence id."""
    return {
        item["evidenceId"]: CatalogItem(
            evidence_id=item["evidenceId"],
            pointer=item["pointer"],
            pointer_digest=item["pointerDigest"],
            strength=item["strength"],
            relations=tuple(item["relations"]),
            limitations=tuple(item["limitations"]),
        )
        for item in record["catalog"]
    }


# (candidate number from 1, statement id) -> claim support. Only in-process extractors whose
# statements come from fixed renderers pass one; a staged document never can.
SupportOf = Callable[[int, str], str]


def stage_drafts(
    workspace: Workspace,
    batch: CandidateDraftBatch,
    *,
    claim_support: SupportOf | None = None,
    turns: TurnSource | None = None,
) -> dict[str, Any]:
    """Submit a draft batch; returns the stored outcome (replayed on identical bytes).
    `turns`: the cited sessions' turns when the caller already read them."""
    record = artifacts.load_recall(workspace.worktree.state_home, batch.task_id)
    task = ExtractionTask.model_validate(record["task"])
    if batch.binding != task.binding:
        raise GitMemoryError(
            "GM_BINDING_DRIFT",
            f"the batch's binding differs from task {batch.task_id!r}",
            hint="echo the task's `binding` exactly as recall returned it",
        )
    response_digest = digest(batch.to_json())
    token = claim_or_replay(workspace, batch.task_id, response_digest)
    if token is not None:
        source_is_current(workspace, batch.task_id, record["turns"])
    result = submit_or_release(
        workspace,
        batch.task_id,
        token,
        response_digest,
        lambda db, stored: _apply(workspace, db, batch, record, claim_support, turns=turns),
    )
    return {**result.outcome, "idempotent": result.idempotent}


def _apply(
    workspace: Workspace,
    db: StateDB,
    batch: CandidateDraftBatch,
    record: dict[str, Any],
    claim_support: SupportOf | None,
    *,
    turns: TurnSource | None = None,
) -> dict[str, Any]:
    catalog = load_catalog(record)
    kept, rejected = _assess_all(batch.candidates, catalog, claim_support)
    if batch.candidates and not kept:
        raise GitMemoryError(
            "GM_NO_CITABLE_STATEMENTS",
            "no candidate of the batch could be kept: every one cites unknown evidence ids or "
            "repeats a statement id",
            hint="cite only evidenceIds of the task's evidenceCatalog; stage again",
            details={"rejected": rejected},
        )
    quoted = locate_quotes(workspace, record, catalog, [draft for _, draft, _ in kept], turns)
    candidate_ids = [
        _insert(
            workspace, db, batch.task_id, record, number=n, draft=draft, found=found, quotes=quotes
        )
        for (n, draft, found), quotes in zip(kept, quoted, strict=True)
    ]
    set_chunk_status(db, record["chunkRef"], "drafted" if kept else "extracted")
    bump_candidate_generation(db, workspace.owner)
    outcome: dict[str, Any] = {
        "taskId": batch.task_id,
        "candidateIds": candidate_ids,
        "rejected": rejected,
        "noOp": not kept,
    }
    if kept:
        drafts = [(cid, draft) for cid, (_, draft, _) in zip(candidate_ids, kept, strict=True)]
        outcome["adjudicationTask"] = build_adjudication_task(workspace, db, batch, drafts)
    return outcome


def _assess_all(
    candidates: list[DraftCandidate],
    catalog: dict[str, CatalogItem],
    claim_support: SupportOf | None,
) -> tuple[list[tuple[int, DraftCandidate, list[Assessment]]], list[dict[str, Any]]]:
    kept, rejected = [], []
    for number, draft in enumerate(candidates, start=1):
        statements = [
            DraftStatement(s.statement_id, s.text, tuple(s.evidence_ids)) for s in draft.statements
        ]
        try:
            support = None if claim_support is None else _support_for(claim_support, number)
            found = assess_statements(statements, catalog, support_of=support)
        except CandidateRejected as refusal:
            rejected.append(
                {"candidate": number, "reason": refusal.reason, "detail": refusal.detail}
            )
            continue
        if not found:
            rejected.append({"candidate": number, "reason": "no-statements", "detail": ""})
            continue
        kept.append((number, draft, found))
    return kept, rejected


def _support_for(claim_support: SupportOf, number: int) -> Callable[[str], str]:
    return lambda statement_id: claim_support(number, statement_id)


def _insert(
    workspace: Workspace,
    db: StateDB,
    task_id: str,
    record: dict[str, Any],
    *,
    number: int,
    draft: DraftCandidate,
    found: list[Assessment],
    quotes: Located,
) -> str:
    candidate_id = f"{task_id}-c{number}"
    payload = {**draft.to_json(), "candidateKind": "entry", "taskId": task_id}
    insert_candidate(
        db,
        candidate_id=candidate_id,
        owner=workspace.owner,
        kind="entry",
        payload=payload,
        content=draft.content,
        chunk_ref=record["chunkRef"],
        task_id=task_id,
    )
    refs = evidence_refs_for(record, found, quotes)
    add_evidence_refs(db, candidate_id, refs, task_id=task_id)
    for assessment in found:
        set_assessment(db, candidate_id, to_store_assessment(assessment))
    return candidate_id


def to_store_assessment(assessment: Assessment, revision: int = 1) -> Any:
    """The store's row type of an assessment."""
    return StoredAssessment(
        statement_id=assessment.statement_id,
        citations_digest=assessment.citations_digest,
        provenance_strength=assessment.provenance_strength,
        limitations=list(assessment.limitations),
        claim_support=assessment.claim_support,
        assessed_by=assessment.assessed_by,
        statement_text_digest=assessment.statement_text_digest,
        revision=revision,
    )


def evidence_refs_for(
    record: dict[str, Any], found: list[Assessment], quotes: Located | None = None
) -> list[Any]:
    """EvidenceRef rows of assessed statements; `detail` is the public pointer (+ display,
    excerpt and, for turns, the turn's start time that becomes an `occurred` date, and the
    quoted words found in the turn with their origin)."""
    catalog = load_catalog(record)
    turns = {t["turnIndex"]: t for t in record["turns"]}
    refs = []
    for assessment in found:
        for evidence_id, pointer_digest in assessment.citations:
            item = catalog[evidence_id]
            detail: dict[str, Any] = {**item.pointer, "display": display(item.pointer)}
            turn = turns.get(item.pointer.get("turnIndex", -1)) if item.kind == "turn" else None
            if turn is not None:
                detail.update(started=turn["started"], excerpt=turn["excerpt"])
            shown = (quotes or {}).get(assessment.statement_id, {}).get(evidence_id)
            if shown:
                detail["quotes"] = shown
            refs.append(
                EvidenceRef(
                    statement_id=assessment.statement_id,
                    evidence_id=evidence_id,
                    pointer_digest=pointer_digest,
                    session_key=turn["sessionKey"] if turn else record["sessionKey"],
                    turn_key=turn["turnKey"] if turn else None,
                    revision=turn["revision"] if turn else None,
                    relation=",".join(item.relations),
                    strength=item.strength,
                    limitations=list(item.limitations),
                    detail=detail,
                )
            )
    return refs
