"""Consolidation runs: the baseline of the last successful run and the pending one.

A run is recorded when a patch is staged: `no_op` (empty patch, successful at once) or
`pending_review` (its candidate waits for review); promotion makes it `applied`; a pending run
whose candidate was discarded becomes `stale`. Each run keeps the revisions of every approved
entry at task time (`baseline`), which incremental consolidation compares against.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from git_memory.contracts.extraction import OwnerKeys
from git_memory.store.candidates import get_candidate
from git_memory.store.consolidation_runs import consolidation_runs, record_consolidation_run
from git_memory.store.db import StateDB

SUCCESSFUL = ("applied", "no_op")


@dataclass(frozen=True)
class RunState:
    """The last successful run (id and baseline) and the id of a pending run, if any."""

    last_successful_id: str | None
    baseline: dict[str, tuple[int, str]]
    pending_run_id: str | None


def run_id_of(task_id: str) -> str:
    """A run is named after the task it answers."""
    return "run-" + task_id


def candidate_id_of(task_id: str) -> str:
    """The consolidation candidate of a task (`patch-consolidate-…`)."""
    return "patch-" + task_id


def _baseline(run: dict[str, Any]) -> dict[str, tuple[int, str]]:
    rows = run["patch"].get("baseline", [])
    return {row["entryId"]: (int(row["revision"]), str(row["contentDigest"])) for row in rows}


def run_state(db: StateDB, owner: OwnerKeys) -> RunState:
    """Current run state; pending runs whose candidate is gone are marked stale first."""
    last: dict[str, Any] | None = None
    pending: str | None = None
    for run in consolidation_runs(db, owner):
        if run["state"] in SUCCESSFUL:
            last = run
        elif run["state"] == "pending_review":
            if _candidate_alive(db, run):
                pending = run["runId"]
            else:
                set_state(db, owner, run, "stale")
    if last is None:
        return RunState(None, {}, pending)
    return RunState(last["runId"], _baseline(last), pending)


def _candidate_alive(db: StateDB, run: dict[str, Any]) -> bool:
    found = get_candidate(db, candidate_id_of(str(run["taskId"])))
    return found is not None and found.status in ("draft", "quarantined")


def set_state(db: StateDB, owner: OwnerKeys, run: dict[str, Any], state: str) -> None:
    """Move a run to `state`, keeping its record."""
    record_consolidation_run(
        db,
        run_id=run["runId"],
        owner=owner,
        task_id=run["taskId"],
        entry_count=run["entryCount"],
        patch=run["patch"],
        state=state,
    )


def find_run(db: StateDB, owner: OwnerKeys, run_id: str) -> dict[str, Any] | None:
    """The run `run_id` of this owner, or None."""
    for run in consolidation_runs(db, owner):
        if run["runId"] == run_id:
            return run
    return None
