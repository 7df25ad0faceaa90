"""Prepare and promote hooks of consolidation plans (scenes, doctrine, merged-away sources).

A plan of one consolidation candidate writes exactly the files its validated patch listed.
At prepare and again at promote, the task is rebuilt from the current approved memory: when
an entry, scene or doctrine changed since staging the plan is refused (`GM_BINDING_DRIFT`),
on top of the blob CAS of every target. Finalizing the plan marks its run `applied`, the
baseline of the next incremental consolidation.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from git_memory.consolidate import runs, scene_meta
from git_memory.consolidate import task as tasks
from git_memory.consolidate.stage import binding_drift
from git_memory.errors import GitMemoryError
from git_memory.store.candidates import require_candidate
from git_memory.store.db import StateDB

if TYPE_CHECKING:
    from git_memory.contracts.promotion import PlanOperation
    from git_memory.store.candidates import Candidate
    from git_memory.store.journal import PlanRecord
    from git_memory.store.session import Workspace


def check_current(workspace: Workspace, candidate: Candidate) -> None:
    """Refuse when the approved memory moved since the patch was staged."""
    payload = candidate.payload
    mode = payload["binding"]["replay"]["mode"]
    workspace.sync_approved()  # the task is rebuilt from the files as they are now
    built = tasks.build(workspace, mode, now_ms=int(time.time() * 1000), check_pending=False)
    if built.task is None or built.task.task_id != payload["taskId"]:
        raise binding_drift(
            f"approved memory changed since consolidation {candidate.candidate_id!r} was staged",
            reason="memory-changed",
            candidateId=candidate.candidate_id,
        )


def plan_files(
    workspace: Workspace, candidates: list[Candidate]
) -> list[tuple[str, PlanOperation, str | None]]:
    """The patch's files: writes, then deletes (relative to the memory root)."""
    if len(candidates) != 1:
        raise GitMemoryError(
            "GM_REQUEST_INVALID",
            "a consolidation plan promotes exactly one patch candidate",
            hint="prepare each consolidation candidate on its own",
        )
    candidate = candidates[0]
    check_current(workspace, candidate)
    files = [(item["path"], item["kind"], item["content"]) for item in candidate.payload["files"]]
    for path, kind, content in files:
        if kind == "write":
            scene_meta.check_stored_form(path, content)
    return files


def precheck(workspace: Workspace, record: PlanRecord) -> None:
    """Before promote touches a file: the memory must still be what the patch was built on."""
    for candidate_id in record.candidate_ids:
        check_current(workspace, require_candidate(workspace.db, candidate_id))


def finalize(db: StateDB, record: PlanRecord) -> None:
    """Inside the finalize transaction: the run of each promoted patch becomes `applied`."""
    for candidate_id in record.candidate_ids:
        run = runs.find_run(db, record.owner, require_candidate(db, candidate_id).payload["runId"])
        if run is not None:
            runs.set_state(db, record.owner, run, "applied")
