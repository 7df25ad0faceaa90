"""AgentStage@v1 documents built from stored stage outcomes."""

from __future__ import annotations

from typing import Any

from git_memory.contracts.adjudication import AdjudicationTask
from git_memory.contracts.stage import AgentStage, RecallComparison, StagedCandidate
from git_memory.extract.review_items import review_model
from git_memory.extract.staging import staged_candidates
from git_memory.store.candidates import require_candidate
from git_memory.store.session import Workspace


def batch_response(workspace: Workspace, outcome: dict[str, Any]) -> AgentStage:
    """Response to a CandidateDraftBatch: the adjudication task, or a visible no-op."""
    document = outcome.get("adjudicationTask")
    rejected = outcome.get("rejected", [])
    if document is None:
        return AgentStage(
            task_id=outcome["taskId"],
            status="staged",
            no_op=True,
            candidates=[],
            review_items=[],
            rejected=rejected,
            next="nothing to keep in this chunk; recall again for the next one",
        )
    task = AdjudicationTask.model_validate(document)
    staged, _ = staged_candidates(workspace, outcome["candidateIds"], "entry")
    return AgentStage(
        task_id=outcome["taskId"],
        adjudication_task_id=task.task_id,
        status="adjudication-required",
        no_op=False,
        candidates=staged,
        review_items=[],
        rejected=rejected,
        adjudication_task=task,
        recall_comparison=RecallComparison(
            recall_algorithm_version=task.binding.recall_algorithm_version,
            recall_sets=task.recall_sets,
            pool=task.pool,
            result_set_digest=task.binding.result_set_digest,
        ),
        next="decide every draft (store, skip, update, merge) against the pool and stage "
        "the AdjudicationResult",
    )


def result_response(workspace: Workspace, outcome: dict[str, Any]) -> AgentStage:
    """Response to an AdjudicationResult: what was quarantined, ready for review."""
    candidates = [
        StagedCandidate(
            candidate_id=d["candidateId"],
            revision=d["revision"],
            kind="entry",
            status=d["status"],
        )
        for d in outcome["decisions"]
    ]
    items = []
    for decision in outcome["decisions"]:
        current = require_candidate(workspace.db, decision["candidateId"])
        if current.status == "quarantined":
            items.append(review_model(workspace.db, current))
    return AgentStage(
        task_id=outcome.get("extractionTaskId") or outcome["taskId"],
        adjudication_task_id=outcome["taskId"],
        status="staged",
        no_op=False,
        candidates=candidates,
        review_items=items,
        next="ask the human to review: `git memory review`, then prepare and promote",
    )
