"""Consolidation counts for `git memory status`: runs by state and what is pending."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from git_memory.store.consolidation_runs import consolidation_runs

if TYPE_CHECKING:
    from git_memory.store.session import Workspace

RUN_STATES = ("pending_review", "no_op", "applied", "stale")


def counts(state: Workspace | None) -> dict[str, Any]:
    """`{runs{state: n}, pendingRunId, lastSuccessfulRunId}`; nothing is created when the
    state DB does not exist yet (`state` None)."""
    empty: dict[str, Any] = {
        "runs": dict.fromkeys(RUN_STATES, 0),
        "pendingRunId": None,
        "lastSuccessfulRunId": None,
    }
    if state is None:
        return empty
    for run in consolidation_runs(state.db, state.owner):
        empty["runs"][run["state"]] += 1
        if run["state"] == "pending_review":
            empty["pendingRunId"] = run["runId"]
        elif run["state"] in ("no_op", "applied"):
            empty["lastSuccessfulRunId"] = run["runId"]
    return empty
