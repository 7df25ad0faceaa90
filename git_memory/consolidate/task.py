"""ConsolidationTask@v1: approved entries, current scenes (with heat) and doctrine, bound.

Incremental mode takes the approved entries whose `(entryId, revision, contentDigest)` differ
from the baseline of the last successful run; `full` takes all of them. The task id is the
digest of the binding, so the same memory state gives the same task, and a patch staged
against it is checked by rebuilding the task from the current state (any change → drift).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from git_memory.consolidate.prompt import CONSOLIDATION_PROMPT, PROMPT_VERSION
from git_memory.consolidate.runs import RunState, run_state
from git_memory.contracts.consolidation import (
    CONSOLIDATION_POLICY_VERSION,
    ApprovedProjectionState,
    ConsolidationBinding,
    ConsolidationContract,
    ConsolidationDoctrine,
    ConsolidationEntry,
    ConsolidationPolicy,
    ConsolidationPrompts,
    ConsolidationScene,
    ConsolidationTask,
    EntryRevision,
    Replay,
    SceneRevision,
)
from git_memory.contracts.extraction import Lease
from git_memory.errors import GitMemoryError
from git_memory.skills.recall_context import (
    DoctrineSource,
    EntrySource,
    SceneSource,
    entry_set_digest,
    scene_index_digest,
)
from git_memory.skills.recall_memory import load_sources
from git_memory.store.approved import ANALYZER_VERSION, get_projection
from git_memory.store.tasks import plan_task

if TYPE_CHECKING:
    from git_memory.store.session import Workspace

Mode = Literal["incremental", "full"]
DUE_ENTRY_COUNT = 20
AGENT_HOLDER = "git-memory-agent"
LEASE_MS = 300_000


@dataclass(frozen=True)
class Snapshot:
    """The approved memory a task is built from."""

    generation: int
    source_tree_digest: str
    entries: list[EntrySource]
    scenes: list[SceneSource]
    doctrine: DoctrineSource | None


@dataclass(frozen=True)
class Built:
    """A task (None when nothing is selected) and what it was built from."""

    task: ConsolidationTask | None
    selected: int
    state: RunState
    snapshot: Snapshot

    def baseline(self) -> list[dict[str, Any]]:
        """Revisions of every approved entry now: the next incremental run compares to it."""
        entries = sorted(self.snapshot.entries, key=lambda e: e.entry_id)
        return [_revision(e).to_json() for e in entries]


def snapshot(workspace: Workspace) -> Snapshot:
    """Approved entries (projection), scenes and doctrine (files); coverage must be complete."""

    projection = get_projection(workspace.db, workspace.owner)
    if projection is None or projection.coverage != "complete":
        raise GitMemoryError(
            "GM_APPROVED_COVERAGE_PARTIAL",
            "the approved memory could not be read completely; consolidating half of it is unsafe",
            hint="run `git memory lint` to find unreadable entry files, then try again",
        )
    sources = load_sources(workspace)
    return Snapshot(
        projection.generation,
        projection.source_tree_digest,
        sources.entries,
        sources.scenes,
        sources.doctrine,
    )


def _revision(entry: EntrySource) -> EntryRevision:
    return EntryRevision(
        entry_id=entry.entry_id, revision=entry.revision, content_digest=entry.content_digest
    )


def select_entries(snap: Snapshot, state: RunState, mode: Mode) -> list[EntrySource]:
    """All entries (`full`) or those new or changed since the last successful baseline."""
    if mode == "full":
        return list(snap.entries)
    return [
        e for e in snap.entries if state.baseline.get(e.entry_id) != (e.revision, e.content_digest)
    ]


def build(workspace: Workspace, mode: Mode, *, now_ms: int, check_pending: bool = True) -> Built:
    """The task for the current state, or a Built with `task` None when nothing is selected.

    With `check_pending`, a run waiting for review blocks a new task (`state.pending_run_id`).
    """
    snap = snapshot(workspace)
    state = run_state(workspace.db, workspace.owner)
    selected = select_entries(snap, state, mode)
    if not selected or (check_pending and state.pending_run_id):
        return Built(None, len(selected), state, snap)
    binding = _binding(workspace, snap, state, mode, selected)
    task = ConsolidationTask(
        task_id=binding.expected_task_id(),
        lease=Lease(holder=AGENT_HOLDER, expires_at=now_ms + LEASE_MS),
        binding=binding,
        entries=[_entry(e) for e in selected],
        scenes=[_scene(s) for s in snap.scenes],
        doctrine=None
        if snap.doctrine is None
        else ConsolidationDoctrine(
            content_digest=snap.doctrine.content_digest, content=snap.doctrine.document
        ),
        policy=ConsolidationPolicy(due_entry_count=DUE_ENTRY_COUNT),
        contract=ConsolidationContract(
            prompts=ConsolidationPrompts(
                prompt_version=PROMPT_VERSION, consolidation=CONSOLIDATION_PROMPT
            )
        ),
    )
    return Built(task, len(selected), state, snap)


def _binding(
    workspace: Workspace, snap: Snapshot, state: RunState, mode: Mode, selected: list[EntrySource]
) -> ConsolidationBinding:
    uuid = workspace.database_uuid
    return ConsolidationBinding(
        database_uuid=uuid,
        memory_state_uuid=uuid,
        owner=workspace.owner,
        approved_projection=ApprovedProjectionState(
            generation=snap.generation,
            analyzer_version=ANALYZER_VERSION,
            coverage="complete",
            source_tree_digest=snap.source_tree_digest,
        ),
        entry_set_digest=entry_set_digest(selected),
        entry_revisions=[_revision(e) for e in sorted(selected, key=lambda e: e.entry_id)],
        scene_index_digest=scene_index_digest(snap.scenes),
        scene_revisions=[
            SceneRevision(name=s.name, content_digest=s.content_digest, heat=s.heat)
            for s in sorted(snap.scenes, key=lambda s: s.name)
        ],
        doctrine_digest=None if snap.doctrine is None else snap.doctrine.content_digest,
        replay=Replay(mode=mode, after_successful_run_id=state.last_successful_id),
        prompt_version=PROMPT_VERSION,
        schema_version="git-memory-consolidation-task@v1",
        policy_version=CONSOLIDATION_POLICY_VERSION,
    )


def _entry(entry: EntrySource) -> ConsolidationEntry:
    return ConsolidationEntry(
        entry_id=entry.entry_id,
        revision=entry.revision,
        content_digest=entry.content_digest,
        type=entry.type,
        scene=entry.scene,
        priority=entry.priority,
        confidence=entry.confidence,
        body=entry.body if entry.body.strip() else "(no body)",
    )


def _scene(scene: SceneSource) -> ConsolidationScene:
    return ConsolidationScene(
        name=scene.name,
        content_digest=scene.content_digest,
        heat=scene.heat,
        content=scene.document,
    )


def plan(workspace: Workspace, task: ConsolidationTask) -> str:
    """Record the task in the store (idempotent: same state, same task); its status."""

    with workspace.db.write(boundary="consolidate.plan"):
        stored, _ = plan_task(
            workspace.db,
            task_id=task.task_id,
            kind="consolidation",
            owner=workspace.owner,
            binding=task.binding.to_json(),
        )
    return stored.status
