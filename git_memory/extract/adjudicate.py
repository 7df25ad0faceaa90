"""Stage #2: apply an AdjudicationResult inside one `BEGIN IMMEDIATE` transaction.

Recall is re-run and must give the same result set the task was built from, and every
update/merge target must still be at the revision the decision saw; otherwise the task goes
stale and nothing changes. `update`/`merge` may target approved entries as well as pool
candidates (never batch drafts); a merge keeps the union of the statements with their
evidence and assessments.
"""

from __future__ import annotations

from typing import Any

from git_memory.contracts.adjudication import (
    Adjudication,
    AdjudicationResult,
    AdjudicationTask,
    PoolItem,
    TaskDraft,
)
from git_memory.contracts.canonical import digest
from git_memory.contracts.stage import AdjudicationOutcome, DecisionOutcome
from git_memory.errors import GitMemoryError
from git_memory.extract import artifacts
from git_memory.extract.adjudication_task import similar_drafts
from git_memory.extract.adjudication_waits import current_adjudication
from git_memory.extract.merge import Stale, merge_into_draft
from git_memory.extract.staging import claim_or_replay, stale, submit_or_release
from git_memory.store.candidates import (
    bump_candidate_generation,
    discard,
    quarantine,
    require_candidate,
)
from git_memory.store.chunks import set_chunk_status
from git_memory.store.db import StateDB
from git_memory.store.session import Workspace
from git_memory.store.similar import SimilarResult
from git_memory.store.tasks import Task, get_task, mark_stale


def invalid(message: str, **details: Any) -> GitMemoryError:
    """A structurally wrong set of decisions."""
    return GitMemoryError(
        "GM_ADJUDICATION_INVALID",
        message,
        hint="decide every draft exactly once, with targets from the pool",
        details=details,
    )


def stage_adjudication(workspace: Workspace, result: AdjudicationResult) -> AdjudicationOutcome:
    """Submit the decisions; returns the stored outcome (replayed on identical bytes)."""
    task = artifacts.load_adjudication(workspace.worktree.state_home, result.task_id)
    stored = get_task(workspace.db, result.task_id)
    if stored is None or result.binding.to_json() != stored.binding:
        raise GitMemoryError(
            "GM_BINDING_DRIFT",
            f"the result's binding differs from task {result.task_id!r}",
            hint="echo the adjudication task's `binding` exactly",
        )
    response_digest = digest(result.to_json())
    try:
        token = claim_or_replay(workspace, result.task_id, response_digest)
        submitted = submit_or_release(
            workspace,
            result.task_id,
            token,
            response_digest,
            lambda db, row: _apply(workspace, db, row, task, result).to_json(),
        )
    except Stale as exc:
        mark_stale(workspace.db, result.task_id, exc.reason)
        raise _reissued(workspace, stored, stale(result.task_id, exc.reason, exc.details)) from None
    except GitMemoryError as exc:
        if exc.code != "GM_TASK_STALE":
            raise
        raise _reissued(workspace, stored, exc) from None
    return AdjudicationOutcome.model_validate(submitted.outcome)


def _reissued(workspace: Workspace, stored: Task, error: GitMemoryError) -> GitMemoryError:
    """`error` (a stale task) carrying the task reissued over the same drafts against the
    current pool, so the drafts are never left without a task that can move them."""
    batch = stored.draft_batch_ref
    task = None if batch is None else current_adjudication(workspace, batch)
    if task is None:
        return error
    return GitMemoryError(
        error.code,
        error.message,
        hint="decide the drafts again against the reissued task in `details.adjudicationTask`"
        " and stage that AdjudicationResult",
        details={
            **(error.details or {}),
            "reissuedTaskId": task.task_id,
            "adjudicationTask": task.sharing_contract().to_json(),
        },
    )


def _apply(
    workspace: Workspace,
    db: StateDB,
    row: Task,
    task: AdjudicationTask,
    result: AdjudicationResult,
) -> AdjudicationOutcome:
    drafts = {d.candidate_id: d for d in task.drafts}
    pool = {p.id: p for p in task.pool}
    again = similar_drafts(
        db, workspace, row.draft_batch_ref, [(cid, d.content) for cid, d in drafts.items()]
    )
    if again.result_set_digest != task.binding.result_set_digest:
        raise Stale("result-set-digest-mismatch", _what_changed(task, again))
    decisions = _validated(result.adjudications, drafts, pool)
    outcome = [_decide(workspace, db, decision, pool) for decision in decisions]
    extraction = row.draft_batch_ref
    if extraction:
        record = artifacts.load_recall(workspace.worktree.state_home, extraction)
        set_chunk_status(db, record.chunk_ref, "extracted")
    bump_candidate_generation(db, workspace.owner)
    return AdjudicationOutcome(
        task_id=result.task_id, extraction_task_id=extraction, decisions=outcome
    )


def _what_changed(task: AdjudicationTask, again: SimilarResult) -> dict[str, Any]:
    """The `GM_TASK_STALE` details: which pool items came, went or moved on."""
    before = {p.id: p.revision for p in task.pool}
    after = {p["id"]: p["revision"] for p in again.pool}
    return {
        "added": sorted(set(after) - set(before)),
        "removed": sorted(set(before) - set(after)),
        "revised": sorted(i for i in set(before) & set(after) if before[i] != after[i]),
        "recallSets": again.recall_sets,
    }


def _validated(
    adjudications: list[Adjudication], drafts: dict[str, TaskDraft], pool: dict[str, PoolItem]
) -> list[Adjudication]:
    decided = [a.draft_ref for a in adjudications]
    if sorted(decided) != sorted(drafts):
        raise invalid(
            "every draft must be decided exactly once",
            missing=sorted(set(drafts) - set(decided)),
            unknown=sorted(set(decided) - set(drafts)),
        )
    skipped = {a.draft_ref for a in adjudications if a.action == "skip"}
    for decision in adjudications:
        for target in decision.target_ids:
            problem = _target_problem(decision.action, target, drafts, pool, skipped)
            if problem:
                raise invalid(
                    f"{decision.action} target {target!r} {problem}",
                    draftRef=decision.draft_ref,
                    target=target,
                )
    return adjudications


def _target_problem(
    action: str,
    target: str,
    drafts: dict[str, TaskDraft],
    pool: dict[str, PoolItem],
    skipped: set[str],
) -> str | None:
    """Why `target` cannot be the target of `action`, or None."""
    if action == "skip":
        if target in drafts:
            return "is a skipped draft" if target in skipped else None
        return None if target in pool else "is neither in the pool nor a draft of this batch"
    if target in drafts:
        return "is a draft of this batch (update and merge need an existing item)"
    return None if target in pool else "is not a pool item"


def _decide(
    workspace: Workspace, db: StateDB, decision: Adjudication, pool: dict[str, PoolItem]
) -> DecisionOutcome:
    draft = require_candidate(db, decision.draft_ref, workspace.owner)
    if decision.action == "store":
        changed = quarantine(db, draft.candidate_id, expected_revision=draft.revision)
    elif decision.action == "skip":
        changed = discard(db, draft.candidate_id, expected_revision=draft.revision)
    else:
        changed = merge_into_draft(workspace, db, draft, decision, pool)
    return DecisionOutcome(
        candidate_id=changed.candidate_id,
        action=decision.action,
        status=changed.status,
        revision=changed.revision,
        target_ids=list(decision.target_ids),
    )
