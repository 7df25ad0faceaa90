"""AgentStage@v1 documents built from stored stage outcomes."""

from __future__ import annotations

from typing import Any

from git_memory.extract.review_items import review_item
from git_memory.store.session import Workspace


def _staged(workspace: Workspace, candidate_ids: list[str]) -> list[dict[str, Any]]:
    from git_memory.store.candidates import require_candidate

    staged = []
    for candidate_id in candidate_ids:
        found = require_candidate(workspace.db, candidate_id)
        staged.append(
            {
                "candidateId": found.candidate_id,
                "revision": found.revision,
                "kind": "entry",
                "status": found.status,
            }
        )
    return staged


def batch_response(workspace: Workspace, outcome: dict[str, Any]) -> dict[str, Any]:
    """Response to a CandidateDraftBatch: the adjudication task, or a visible no-op."""
    task = outcome.get("adjudicationTask")
    if task is None:
        return {
            "taskId": outcome["taskId"],
            "status": "staged",
            "noOp": True,
            "candidates": [],
            "reviewItems": [],
            "rejected": outcome.get("rejected", []),
            "next": "nothing to keep in this chunk; recall again for the next one",
        }
    return {
        "taskId": outcome["taskId"],
        "adjudicationTaskId": task["taskId"],
        "status": "adjudication-required",
        "noOp": False,
        "candidates": _staged(workspace, outcome["candidateIds"]),
        "reviewItems": [],
        "rejected": outcome.get("rejected", []),
        "adjudicationTask": task,
        "recallComparison": {
            "recallAlgorithmVersion": task["binding"]["recallAlgorithmVersion"],
            "recallSets": task["recallSets"],
            "pool": task["pool"],
            "resultSetDigest": task["binding"]["resultSetDigest"],
        },
        "next": "decide every draft (store, skip, update, merge) against the pool and stage "
        "the AdjudicationResult",
    }


def result_response(workspace: Workspace, outcome: dict[str, Any]) -> dict[str, Any]:
    """Response to an AdjudicationResult: what was quarantined, ready for review."""
    from git_memory.store.candidates import require_candidate

    candidates = [
        {
            "candidateId": d["candidateId"],
            "revision": d["revision"],
            "kind": "entry",
            "status": d["status"],
        }
        for d in outcome["decisions"]
    ]
    items = []
    for decision in outcome["decisions"]:
        current = require_candidate(workspace.db, decision["candidateId"])
        if current.status == "quarantined":
            items.append(review_item(workspace.db, current))
    return {
        "taskId": outcome.get("extractionTaskId") or outcome["taskId"],
        "adjudicationTaskId": outcome["taskId"],
        "status": "staged",
        "noOp": False,
        "candidates": candidates,
        "reviewItems": items,
        "next": "ask the human to review: `git memory review`, then prepare and promote",
    }
