"""Stage a ConsolidationPatch@v1: binding echo, every format rule, one reviewable statement per op.

The patch must echo the task it answers, and the task rebuilt from the current approved
memory must still be that task (an entry, scene or doctrine changed since `synthesize`:
`GM_BINDING_DRIFT`). The rules of `consolidate.rules` then validate and materialize it (host
heat, canonical META). An empty patch is recorded as a visible `no_op` run without candidate;
otherwise one quarantined `consolidation-patch` candidate carries every operation as an
`unverified` statement, so a human confirms each one in `git memory review`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from git_memory.consolidate import runs
from git_memory.consolidate import task as tasks
from git_memory.consolidate.review_text import operation_text, patch_summary
from git_memory.consolidate.rules import ValidatedPatch, context_from_task, validate_patch
from git_memory.consolidate.scene_meta import check_stored_form
from git_memory.contracts.canonical import digest
from git_memory.contracts.consolidation import ConsolidationPatch, ConsolidationTask, EntryRevision
from git_memory.contracts.stage import AgentStage
from git_memory.errors import GitMemoryError
from git_memory.extract.staging import claim_or_replay, release, staged_candidates
from git_memory.store.candidates import (
    Assessment,
    EvidenceRef,
    add_evidence_refs,
    insert_candidate,
    set_assessment,
)
from git_memory.store.consolidation_runs import record_consolidation_run
from git_memory.store.db import StateDB
from git_memory.store.tasks import get_task, mark_stale, not_found, submit_task

if TYPE_CHECKING:
    from git_memory.consolidate.rules import MaterializedOperation
    from git_memory.contracts.consolidation import ConsolidationBinding
    from git_memory.store.session import Workspace

LIMITATIONS = ["generated-consolidation-content", "source-approved-memory-only"]


def binding_drift(message: str, **details: Any) -> GitMemoryError:
    """`GM_BINDING_DRIFT`: the document answers a state that is no longer current."""
    return GitMemoryError(
        "GM_BINDING_DRIFT",
        message,
        hint="run `git memory synthesize` again and answer the new task",
        details=details or None,
    )


def _stored_task(workspace: Workspace, patch: ConsolidationPatch) -> Any:
    stored = get_task(workspace.db, patch.task_id)
    if stored is None or stored.owner != workspace.owner or stored.kind != "consolidation":
        raise not_found(patch.task_id)
    if patch.binding.to_json() != stored.binding or (
        patch.binding.expected_task_id() != patch.task_id
    ):
        raise binding_drift(
            f"the patch's binding differs from task {patch.task_id!r}",
            reason="binding-echo",
        )
    return stored


def current_task(
    workspace: Workspace, patch_binding: ConsolidationBinding, task_id: str
) -> tasks.Built:
    """The task rebuilt from the current state; drift when it is not `task_id` any more."""

    built = tasks.build(
        workspace, patch_binding.replay.mode, now_ms=int(time.time() * 1000), check_pending=False
    )
    if built.task is None or built.task.task_id != task_id:
        mark_stale(workspace.db, task_id, "approved memory changed since synthesize")
        raise binding_drift(
            f"approved entries, scenes or doctrine changed since task {task_id!r} was issued",
            reason="memory-changed",
        )
    pending = built.state.pending_run_id
    if pending is not None and pending != runs.run_id_of(task_id):
        raise GitMemoryError(
            "GM_CONSOLIDATION_PENDING",
            f"consolidation run {pending} waits for review",
            hint="review, promote or discard it before staging another patch",
            details={"pendingRunId": pending},
        )
    return built


def stage_patch(workspace: Workspace, patch: ConsolidationPatch) -> AgentStage:
    """Stage the patch; returns the AgentStage document (identical bytes replay)."""

    _stored_task(workspace, patch)
    response_digest = digest(patch.to_json())
    token = claim_or_replay(workspace, patch.task_id, response_digest)
    prepared: tuple[tasks.Built, ValidatedPatch] | None = None
    try:
        if token is not None:
            built = current_task(workspace, patch.binding, patch.task_id)
            assert built.task is not None  # current_task raises drift otherwise
            validated = validate_patch(patch.operations, context_from_task(built.task))
            _check_stored_forms(validated)
            prepared = (built, validated)
        result = submit_task(
            workspace.db,
            task_id=patch.task_id,
            claim_token=token or "",
            response_digest=response_digest,
            apply=lambda db, _stored: _apply(workspace, db, patch, prepared),
        )
    except GitMemoryError:
        release(workspace, patch.task_id, token)
        raise
    return _response(workspace, result.outcome)


def _check_stored_forms(validated: ValidatedPatch) -> None:
    for change in validated.files:
        if change.kind == "write" and change.content is not None:
            check_stored_form(change.path, change.content)


def _apply(
    workspace: Workspace,
    db: StateDB,
    patch: ConsolidationPatch,
    prepared: tuple[tasks.Built, ValidatedPatch] | None,
) -> dict[str, Any]:
    assert prepared is not None, "a fresh submission is always validated first"
    built, validated = prepared
    assert built.task is not None
    task, baseline = built.task, built.baseline()
    run_id = runs.run_id_of(patch.task_id)
    candidate_id = None if validated.no_op else _insert(workspace, db, task, validated, run_id)
    record_consolidation_run(
        db,
        run_id=run_id,
        owner=workspace.owner,
        task_id=patch.task_id,
        entry_count=len(task.entries),
        patch={
            "baseline": baseline,
            "candidateId": candidate_id,
            "operations": [op.to_json() for op in validated.operations],
        },
        state="no_op" if validated.no_op else "pending_review",
    )
    return {
        "taskId": patch.task_id,
        "runId": run_id,
        "noOp": validated.no_op,
        "candidateIds": [] if candidate_id is None else [candidate_id],
    }


def _citations(task: ConsolidationTask, entry_ids: tuple[str, ...]) -> list[dict[str, Any]]:
    by_id = {e.entry_id: e for e in task.entries}
    return [
        EntryRevision(
            entry_id=eid, revision=by_id[eid].revision, content_digest=by_id[eid].content_digest
        ).to_json()
        for eid in sorted(entry_ids)
    ]


def _payload(task: ConsolidationTask, validated: ValidatedPatch, run_id: str) -> dict[str, Any]:
    """The candidate document: binding, operations as statements (with the text the human
    confirms) and the exact files the plan will write or delete."""
    statements = [
        {
            "statementId": op.operation_id,
            "text": operation_text(op, task, validated),
            "operation": {**op.to_json(), "heat": op.heat},
        }
        for op in validated.operations
    ]
    return {
        "candidateKind": "consolidation-patch",
        "runId": run_id,
        "taskId": task.task_id,
        "binding": task.binding.to_json(),
        "content": patch_summary(validated),
        "type": None,
        "statements": statements,
        "files": [
            {"path": f.path, "kind": f.kind, "operationId": f.operation_id, "content": f.content}
            for f in validated.files
        ],
    }


def _insert(
    workspace: Workspace,
    db: StateDB,
    task: ConsolidationTask,
    validated: ValidatedPatch,
    run_id: str,
) -> str:
    candidate_id = runs.candidate_id_of(task.task_id)
    payload = _payload(task, validated, run_id)
    insert_candidate(
        db,
        candidate_id=candidate_id,
        owner=workspace.owner,
        kind="consolidation-patch",
        payload=payload,
        content=str(payload["content"]),
        task_id=task.task_id,
        status="quarantined",
    )
    for op in validated.operations:
        _add_evidence(db, candidate_id, task, op.operation_id, op.based_on_entry_ids)
        set_assessment(db, candidate_id, _assessment(task, op))
    return candidate_id


def _add_evidence(
    db: StateDB, candidate_id: str, task: ConsolidationTask, op_id: str, entry_ids: tuple[str, ...]
) -> None:
    by_id = {e.entry_id: e for e in task.entries}
    refs = [
        EvidenceRef(
            statement_id=op_id,
            evidence_id=eid,
            pointer_digest=by_id[eid].content_digest,
            revision=str(by_id[eid].revision),
            relation="based-on",
            strength="contextual",
            limitations=list(LIMITATIONS),
            detail={
                "kind": "entry",
                "entryId": eid,
                "display": f"entries/{eid}.md (revision {by_id[eid].revision})",
                "excerpt": by_id[eid].body[:480],
            },
        )
        for eid in sorted(entry_ids)
    ]
    if refs:
        add_evidence_refs(db, candidate_id, refs, task_id=task.task_id)


def _assessment(task: ConsolidationTask, op: MaterializedOperation) -> Any:
    return Assessment(
        statement_id=op.operation_id,
        citations_digest=digest(_citations(task, op.based_on_entry_ids)),
        provenance_strength="contextual",
        limitations=list(LIMITATIONS),
        claim_support="unverified",
        assessed_by="deterministic",
        statement_text_digest=digest(op.to_json()),
        revision=1,
    )


def _response(workspace: Workspace, outcome: dict[str, Any]) -> AgentStage:
    staged, items = staged_candidates(workspace, outcome["candidateIds"], "consolidation")
    return AgentStage(
        task_id=outcome["taskId"],
        status="staged",
        no_op=outcome["noOp"],
        candidates=staged,
        review_items=items,
        next=f"recorded no-op consolidation run {outcome['runId']}"
        if outcome["noOp"]
        else "ask the human to review every operation: `git memory review --kind "
        "consolidation`, then prepare and promote",
    )
