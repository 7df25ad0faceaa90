"""AdjudicationTask@v1: drafts beside what dual recall found closest to each of them."""

from __future__ import annotations

from git_memory.contracts.adjudication import (
    AdjudicationBinding,
    AdjudicationContract,
    AdjudicationPrompts,
    AdjudicationTask,
    PoolItem,
    PoolItemRevision,
    Projection,
    RecallSet,
    TaskDraft,
)
from git_memory.contracts.extraction import CandidateDraftBatch, DraftCandidate, Lease
from git_memory.extract import artifacts
from git_memory.extract.prompts import ADJUDICATION_PROMPT_VERSION, prompt_text
from git_memory.extract.staging import AGENT_HOLDER, LEASE_MS
from git_memory.store.candidates import search_text_of
from git_memory.store.db import StateDB, now_ms
from git_memory.store.session import Workspace
from git_memory.store.similar import Draft, SimilarResult, find_similar
from git_memory.store.tasks import plan_task

RESULT_FORMAT = "git-memory-adjudication-result@v1"


def similar_drafts(
    db: StateDB, workspace: Workspace, batch_task_id: str | None, drafts: list[tuple[str, str]]
) -> SimilarResult:
    """The approved entries and candidates closest to each (candidateId, content) draft by
    dual BM25 search; each draft excludes only itself and sees, of all drafts, only those of
    its own batch (the one answering extraction task `batch_task_id`)."""
    return find_similar(
        db,
        workspace.owner,
        [
            Draft(
                draft_ref=cid,
                candidate_id=cid,
                query_text=search_text_of(text),
                batch_task_id=batch_task_id,
            )
            for cid, text in drafts
        ],
    )


def build_adjudication_task(
    workspace: Workspace,
    db: StateDB,
    batch: CandidateDraftBatch,
    drafts: list[tuple[str, DraftCandidate]],
) -> AdjudicationTask:
    """Recall, bind, plan and keep the adjudication task of a staged batch."""
    return adjudication_task_for(workspace, db, batch.task_id, batch.draft_batch_digest(), drafts)


def adjudication_task_for(
    workspace: Workspace,
    db: StateDB,
    batch_task_id: str,
    batch_digest: str,
    drafts: list[tuple[str, DraftCandidate]],
    *,
    reissue_of: str | None = None,
) -> AdjudicationTask:
    """Recall the pool of `drafts` (of the batch answering `batch_task_id`) as it is now,
    bind, plan and keep the adjudication task; the same pool gives the same task.
    `reissue_of`: the stale task this one replaces (bound, so the id is new even when the
    pool came back to what the stale task saw)."""
    found = similar_drafts(db, workspace, batch_task_id, [(cid, d.content) for cid, d in drafts])
    pool = [PoolItem.model_validate(item) for item in found.pool]
    uuid = workspace.database_uuid
    binding = AdjudicationBinding(
        database_uuid=uuid,
        memory_state_uuid=uuid,
        owner=workspace.owner,
        draft_batch_digest=batch_digest,
        approved_projection=Projection(
            generation=found.approved_generation, analyzer_version=found.analyzers["approved"]
        ),
        candidate_projection=Projection(
            generation=found.candidate_generation, analyzer_version=found.analyzers["candidate"]
        ),
        recall_algorithm_version="recall-rrf@1",
        recall_query_digest=found.recall_query_digest,
        result_set_digest=found.result_set_digest,
        pool_item_revisions=sorted(
            (
                PoolItemRevision(source_kind=p.source_kind, id=p.id, revision=p.revision)
                for p in pool
            ),
            key=lambda p: (p.source_kind, p.id),
        ),
        prompt_version=ADJUDICATION_PROMPT_VERSION,
        schema_version=RESULT_FORMAT,
        reissue_of=reissue_of,
    )
    task_id = f"adjudicate-agent-{binding.digest()}"
    document = AdjudicationTask(
        task_id=task_id,
        lease=Lease(holder=AGENT_HOLDER, expires_at=now_ms() + LEASE_MS),
        binding=binding,
        drafts=[TaskDraft(**dict(draft), candidate_id=cid) for cid, draft in drafts],
        recall_sets=[RecallSet.model_validate(item) for item in found.recall_sets],
        pool=pool,
        contract=adjudication_contract(),
    )
    plan_task(
        db,
        task_id=task_id,
        kind="adjudication",
        owner=workspace.owner,
        binding=binding.to_json(),
        draft_batch_ref=batch_task_id,
    )
    artifacts.save_adjudication(workspace.worktree.state_home, document)
    return document


def adjudication_contract() -> AdjudicationContract:
    """The whole contract of an adjudication task: its prompt and its answer's schema."""
    return AdjudicationContract(
        prompts=AdjudicationPrompts(
            prompt_version=ADJUDICATION_PROMPT_VERSION,
            adjudication=prompt_text(ADJUDICATION_PROMPT_VERSION),
        )
    )
