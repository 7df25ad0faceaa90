"""`synthesize`: build the consolidation task, or say why there is none."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from git_memory.consolidate import runs
from git_memory.consolidate import task as tasks
from git_memory.contracts.consolidation import (
    PATCH_FORMAT,
    ConsolidationTask,
    Synthesis,
    SynthesisGuidance,
)
from git_memory.store.candidates import get_candidate

if TYPE_CHECKING:
    from git_memory.store.session import Workspace

RULE = (
    "Echo taskId and binding exactly; cite only entry ids of the task; prefer updates, create "
    "at most one scene; never write heat (the host computes it); an empty operations list "
    "means no change. Each operation is confirmed by the human in `git memory review`."
)


def synthesize(workspace: Workspace, mode: tasks.Mode, *, if_due: bool = False) -> Synthesis:
    """The Synthesis document: a planned task, or a note (not due, nothing new, pending)."""
    built = tasks.build(workspace, mode, now_ms=int(time.time() * 1000))
    if built.state.pending_run_id is not None and retire_outdated(workspace, built):
        built = tasks.build(workspace, mode, now_ms=int(time.time() * 1000))
    note = why_none(built, if_due)
    if note is not None:
        return _synthesis(None, built, note)
    assert built.task is not None
    tasks.plan(workspace, built.task)
    return _synthesis(built.task, built, None)


def retire_outdated(workspace: Workspace, built: tasks.Built) -> bool:
    """Mark the pending run stale when memory moved since its patch was staged (its plan can
    never be prepared then); True when it was retired."""
    run = runs.find_run(workspace.db, workspace.owner, str(built.state.pending_run_id))
    candidate = (
        get_candidate(workspace.db, runs.candidate_id_of(str(run["taskId"]))) if run else None
    )
    if run is None or candidate is None:
        return False
    mode = candidate.payload["binding"]["replay"]["mode"]
    current = tasks.build(workspace, mode, now_ms=0, check_pending=False)
    if current.task is not None and current.task.task_id == run["taskId"]:
        return False
    runs.set_state(workspace.db, workspace.owner, run, "stale")
    return True


def why_none(built: tasks.Built, if_due: bool) -> str | None:
    """Why no task is handed out (pending run, nothing new, not due), or None."""
    if built.state.pending_run_id is not None:
        return (
            f"consolidation run {built.state.pending_run_id} waits for review; review, "
            "promote or discard it before synthesizing again"
        )
    if built.selected == 0:
        return "No new or changed approved entries since the last successful consolidation."
    if if_due and built.selected < tasks.DUE_ENTRY_COUNT:
        return (
            f"Consolidation is not due: {built.selected} approved entr(y/ies) new or changed, "
            f"due at {tasks.DUE_ENTRY_COUNT}."
        )
    return None


def _synthesis(task: ConsolidationTask | None, built: tasks.Built, note: str | None) -> Synthesis:
    return Synthesis(
        task=task,
        entry_count=built.selected,
        due_at=tasks.DUE_ENTRY_COUNT,
        pending_run_id=built.state.pending_run_id,
        guidance=SynthesisGuidance(
            next_action="stage" if task is not None else "none",
            request_format=PATCH_FORMAT,
            rule=RULE,
        ),
        note=note,
    )
