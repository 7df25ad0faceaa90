"""`recall`: plan the pending extraction tasks of a selection and hand them to the agent."""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping

from git_memory.contracts.canonical import digest
from git_memory.contracts.extraction import ExtractionTask, MemoryExtractionRequest
from git_memory.contracts.recall import (
    AgentRecall,
    RecallContracts,
    RecallGuidance,
    RecallSelection,
)
from git_memory.contracts.requests import RecallRequest
from git_memory.extract import artifacts
from git_memory.extract.adjudication_task import adjudication_contract
from git_memory.extract.adjudication_waits import current_adjudications
from git_memory.extract.builtin.marks import builtin_drafts
from git_memory.extract.contracts_handed import handed_before
from git_memory.extract.select import WindowSelection, select
from git_memory.extract.tasks import PlannedTask, build_tasks, extraction_contract
from git_memory.sessions.providers.base import enabled
from git_memory.sessions.sync import sync
from git_memory.skills.recall_memory import build_contexts, load_sources
from git_memory.store.chunks import upsert_chunk
from git_memory.store.session import Workspace
from git_memory.store.tasks import lease_is_live, plan_task

GUIDANCE_RULES = [
    "Show the user the candidates you propose and merge their edits before staging: staged "
    "candidates are immutable.",
    "Cite only evidence ids from the task's evidenceCatalog (or its turnEvidence map).",
    "A task's builtinDrafts were found with observed evidence: put them in your batch as they "
    "are (drop one the user rejects); read the chunk for what they do not say.",
    "Stage the CandidateDraftBatch, then stage the AdjudicationResult the response asks for.",
    "Decide the adjudicationTasks first: their drafts wait, and count as nothing until decided.",
    "Never stage secrets, session ids or absolute home paths: the lint gate refuses them.",
    "The human confirms each statement in `git memory review` before prepare and promote.",
]


HANDED_EARLIER = (
    "{digest}: contracts, contexts (memoryContext bindingDigest {memory}), rules and skill "
    "schema as an earlier recall of this session handed them out (withContracts: true has "
    "them again)"
)


def pending_tasks(
    workspace: Workspace,
    request: MemoryExtractionRequest,
    *,
    now: float | None = None,
    capped: bool = True,
) -> tuple[WindowSelection, list[PlannedTask]]:
    """Sync the session index, select the window and plan its chunks; the pending ones."""
    moment = time.time() if now is None else now
    selection = select_window(workspace, request, now=moment, capped=capped)
    return selection, plan_sessions(workspace, selection, moment)


def select_window(
    workspace: Workspace,
    request: MemoryExtractionRequest,
    *,
    now: float,
    capped: bool = True,
) -> WindowSelection:
    """Sync the session index and select the window."""
    worktree = workspace.worktree
    # Take in what the agents wrote since the last look; an agent calling recall over MCP has
    # no other step that would. The open memory-state DB holds no lock, so the session
    # index's lock is still the first one taken.
    sync(worktree.state_home, providers=enabled(worktree))
    return select(worktree, request, now=now, capped=capped)


def plan_sessions(
    workspace: Workspace,
    selection: WindowSelection,
    moment: float,
    only: Collection[str] | None = None,
    *,
    save_records: bool = True,
    replayed: Mapping[str, frozenset[int]] | None = None,
) -> list[PlannedTask]:
    """Plan the chunks of the selected sessions (`only` these when given) and record them;
    the pending ones.

    `save_records=False`: the private record of each pending task is left to the caller, an
    in-process runner that keeps it in memory and writes only those it stages candidates
    from (a record holds its chunk's transcript: writing one per chunk dominated a whole
    window's builtin extraction)."""
    binding, uuid = workspace.binding, workspace.database_uuid
    planned = build_tasks(selection, binding, uuid, int(moment * 1000), only, replayed=replayed)
    return [p for p in planned if _plan_pending(workspace, p, save_records)]


def recall(
    workspace: Workspace, request: RecallRequest, *, now: float | None = None
) -> AgentRecall:
    """Select, chunk and plan; return up to `limit` pending tasks plus the contexts."""
    selection, pending = pending_tasks(workspace, request.request, now=now)
    sources = load_sources(workspace)
    memory_context, skill_context = build_contexts(sources, request.request.query)
    waiting = current_adjudications(workspace)
    handed = pending[: request.limit]
    tasks = _marked(workspace, selection, handed)
    # The prompts and schemas travel once, here; each task points to them (repeated by every
    # task, they were a large share of every recall's bytes).
    contracts = RecallContracts(
        extraction=extraction_contract(), adjudication=adjudication_contract()
    )
    guidance = RecallGuidance(rules=GUIDANCE_RULES)
    # ...and, with the contexts, once per MCP session (`contracts_handed.py`): a later recall
    # names their digest. New approved memory changes the digest: all of it travels again.
    shared = digest(
        {
            "contracts": contracts.to_json(),
            "guidance": guidance.to_json(),
            "memoryContext": memory_context.to_json(),
            "skillContext": skill_context.to_json(),
        }
    )
    full = AgentRecall(
        selection=_selection(selection, len(pending)),
        tasks=[task.sharing_contract() for task in tasks],
        memory_context=memory_context,
        skill_context=skill_context,
        guidance=guidance,
        note=_note(selection, pending, request.limit),
        contracts=contracts if tasks or waiting else None,
        adjudication_tasks=[task.sharing_contract() for task in waiting] or None,
    )
    if not (tasks or waiting):
        return full
    seen = handed_before(workspace.worktree.state_home, shared)
    if not seen or request.with_contracts:
        return full
    earlier = HANDED_EARLIER.format(digest=shared, memory=memory_context.binding_digest)
    return full.model_copy(
        update={
            "contracts": None,
            "memory_context": None,
            "skill_context": None,
            "guidance": guidance.model_copy(update={"skill_document_schema": None, "rules": None}),
            "handed_earlier": earlier,
        }
    )


def _marked(
    workspace: Workspace, selection: WindowSelection, handed: list[PlannedTask]
) -> list[ExtractionTask]:
    """The tasks as handed out, each with the drafts the builtin extractor already writes
    from its chunk (`builtin/marks.py`); their statements join the task's private record."""
    marked = builtin_drafts(workspace, selection, handed)
    tasks = []
    for planned in handed:
        found = marked.get(planned.task.task_id)
        if found is None:
            tasks.append(planned.task)
            continue
        record = planned.host_record().model_copy(update={"observed": found.observed})
        artifacts.save_recall(workspace.worktree.state_home, record)
        tasks.append(planned.task.model_copy(update={"builtin_drafts": found.drafts}))
    return tasks


def _plan_pending(workspace: Workspace, planned: PlannedTask, save: bool = True) -> bool:
    """Record the chunk and task (and with `save` its private record); True when the task
    still waits for a stage."""
    task = planned.task
    rng = task.chunk.turn_range
    with workspace.db.write(boundary="extract.plan"):
        chunk = upsert_chunk(
            workspace.db,
            chunk_ref=planned.chunk_ref,
            owner=workspace.owner,
            session_key=planned.session_key,
            turn_range=f"{rng.start}-{rng.end}",
            chunk_digest=task.binding.source_input_digest,
        )
        stored, _ = plan_task(
            workspace.db,
            task_id=task.task_id,
            kind="extraction",
            owner=workspace.owner,
            binding=task.binding.to_json(),
            chunk_ref=planned.chunk_ref,
        )
    if stored.status in ("submitted", "stale") or chunk.status != "pending":
        return False
    if lease_is_live(stored):
        return False  # being staged right now by a live process
    if save:
        artifacts.save_recall(workspace.worktree.state_home, planned.host_record())
    return True


def _selection(selection: WindowSelection, pending: int) -> RecallSelection:
    return RecallSelection(
        request_digest=selection.request_digest,
        result_set_digest=selection.result_set_digest,
        matched_sessions=selection.matched_sessions,
        rejected_sessions=selection.rejected_sessions,
        pending_chunks=pending,
    )


def _note(selection: WindowSelection, pending: list[PlannedTask], limit: int) -> str | None:
    if not selection.sessions:
        return "no session of this worktree has enough sealed turns in the window"
    if not pending:
        return "every chunk of this selection has been staged already"
    if len(pending) > limit:
        return f"{len(pending) - limit} more pending chunks: recall again after staging"
    return None
