"""AdjudicationTask@v1: drafts beside what dual recall found closest to each of them."""

from __future__ import annotations

from typing import Any

from git_memory.contracts.adjudication import AdjudicationTask
from git_memory.contracts.canonical import digest
from git_memory.contracts.extraction import CandidateDraftBatch, DraftCandidate
from git_memory.extract import artifacts
from git_memory.extract.prompts import ADJUDICATION_PROMPT_VERSION, prompt_text
from git_memory.extract.staging import AGENT_HOLDER, LEASE_MS
from git_memory.store.db import StateDB, now_ms
from git_memory.store.session import Workspace

RESULT_FORMAT = "git-memory-adjudication-result@v1"


def recall_drafts(db: StateDB, workspace: Workspace, drafts: list[tuple[str, str]]) -> Any:
    """Dual recall for (candidateId, content) drafts; each draft excludes only itself."""
    from git_memory.store.candidates import search_text_of
    from git_memory.store.recall import Draft, recall

    return recall(
        db,
        workspace.owner,
        [
            Draft(draft_ref=cid, candidate_id=cid, query_text=search_text_of(text))
            for cid, text in drafts
        ],
    )


def build_adjudication_task(
    workspace: Workspace,
    db: StateDB,
    batch: CandidateDraftBatch,
    drafts: list[tuple[str, DraftCandidate]],
) -> dict[str, Any]:
    """Recall, bind, plan and keep the adjudication task of a staged batch."""
    from git_memory.store.tasks import plan_task

    found = recall_drafts(db, workspace, [(cid, d.content) for cid, d in drafts])
    uuid = workspace.database_uuid
    binding = {
        "databaseUuid": uuid,
        "memoryStateUuid": uuid,
        "owner": {
            "repositoryKey": workspace.owner.repository_key,
            "worktreeKey": workspace.owner.worktree_key,
        },
        "draftBatchDigest": batch.draft_batch_digest(),
        "approvedProjection": {
            "generation": found.approved_generation,
            "analyzerVersion": found.analyzers["approved"],
        },
        "candidateProjection": {
            "generation": found.candidate_generation,
            "analyzerVersion": found.analyzers["candidate"],
        },
        "recallAlgorithmVersion": "recall-rrf@1",
        "recallQueryDigest": found.recall_query_digest,
        "resultSetDigest": found.result_set_digest,
        "poolItemRevisions": sorted(
            (
                {"sourceKind": p["sourceKind"], "id": p["id"], "revision": p["revision"]}
                for p in found.pool
            ),
            key=lambda p: (p["sourceKind"], p["id"]),
        ),
        "promptVersion": ADJUDICATION_PROMPT_VERSION,
        "schemaVersion": RESULT_FORMAT,
    }
    task_id = f"adjudicate-agent-{digest(binding)}"
    document = AdjudicationTask.model_validate(
        {
            "taskId": task_id,
            "lease": {"holder": AGENT_HOLDER, "expiresAt": now_ms() + LEASE_MS},
            "binding": binding,
            "drafts": [{**draft.to_json(), "candidateId": cid} for cid, draft in drafts],
            "recallSets": found.recall_sets,
            "pool": found.pool,
            "contract": {
                "resultSchema": RESULT_FORMAT,
                "prompts": {
                    "promptVersion": ADJUDICATION_PROMPT_VERSION,
                    "adjudication": prompt_text(ADJUDICATION_PROMPT_VERSION),
                },
            },
        }
    ).to_json()
    plan_task(
        db,
        task_id=task_id,
        kind="adjudication",
        owner=workspace.owner,
        binding=binding,
        draft_batch_ref=batch.task_id,
    )
    artifacts.save_adjudication(workspace.worktree.state_home, document)
    return document
