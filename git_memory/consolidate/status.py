"""Consolidation counts for `git memory status`: runs by state and what is pending."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from git_memory.paths import MEMORY_STATE_DB

RUN_STATES = ("pending_review", "no_op", "applied", "stale")


if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree


def counts(worktree: Worktree) -> dict[str, Any]:
    """`{runs{state: n}, pendingRunId, lastSuccessfulRunId}`; nothing is created when the
    state DB does not exist yet."""
    empty: dict[str, Any] = {
        "runs": dict.fromkeys(RUN_STATES, 0),
        "pendingRunId": None,
        "lastSuccessfulRunId": None,
    }
    if not (worktree.state_home / MEMORY_STATE_DB).exists():
        return empty
    from git_memory.store.consolidation_runs import consolidation_runs
    from git_memory.store.session import open_workspace

    state = open_workspace(worktree, sync=False)
    try:
        for run in consolidation_runs(state.db, state.owner):
            empty["runs"][run["state"]] += 1
            if run["state"] == "pending_review":
                empty["pendingRunId"] = run["runId"]
            elif run["state"] in ("no_op", "applied"):
                empty["lastSuccessfulRunId"] = run["runId"]
    finally:
        state.close()
    return empty
