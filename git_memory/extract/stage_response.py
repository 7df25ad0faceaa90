"""AgentStage@v1 documents built from stored stage outcomes."""

from __future__ import annotations

from git_memory.contracts.stage import (
    AdjudicationOutcome,
    AgentStage,
    DraftsOutcome,
    StagedCandidate,
)
from git_memory.extract.adjudication_waits import current_adjudication
from git_memory.extract.review_items import review_model
from git_memory.extract.staging import staged_candidates
from git_memory.store.candidates import require_candidate
from git_memory.store.session import Workspace


def batch_response(workspace: Workspace, outcome: DraftsOutcome) -> AgentStage:
    """Response to a CandidateDraftBatch: the adjudication task, or a visible no-op.

    A replay hands out the task that can move the batch's drafts now: the stored one went
    stale if its pool moved since (`adjudication_waits`)."""
    task, rejected = outcome.adjudication_task, outcome.rejected
    if task is not None:
        task = current_adjudication(workspace, outcome.task_id) or task
    if task is None:
        return AgentStage(
            task_id=outcome.task_id,
            status="staged",
            no_op=True,
            candidates=[],
            review_items=[],
            rejected=rejected,
            next="nothing to keep in this chunk; recall again for the next one",
        )
    staged, _ = staged_candidates(workspace, outcome.candidate_ids, "entry")
    return AgentStage(
        task_id=outcome.task_id,
        adjudication_task_id=task.task_id,
        status="adjudication-required",
        no_op=False,
        candidates=staged,
        review_items=[],
        rejected=rejected,
        # The task carries the pool and recall sets once, and points to the recall's
        # prompt and schema instead of repeating them.
        adjudication_task=task.sharing_contract(),
        next="decide every draft (store, skip, update, merge) against the pool and stage "
        "the AdjudicationResult",
    )


def result_response(workspace: Workspace, outcome: AdjudicationOutcome) -> AgentStage:
    """Response to an AdjudicationResult: what was quarantined, ready for review."""
    candidates = [
        StagedCandidate(
            candidate_id=d.candidate_id, revision=d.revision, kind="entry", status=d.status
        )
        for d in outcome.decisions
    ]
    items = []
    for decision in outcome.decisions:
        current = require_candidate(workspace.db, decision.candidate_id)
        if current.status == "quarantined":
            items.append(review_model(workspace.db, current))
    return AgentStage(
        task_id=outcome.extraction_task_id or outcome.task_id,
        adjudication_task_id=outcome.task_id,
        status="staged",
        no_op=False,
        candidates=candidates,
        review_items=items,
        next="ask the human to review: `git memory review`, then prepare and promote",
    )
