"""Counts of the memory state for `git memory status`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from git_memory.store.offers import waiting_count

if TYPE_CHECKING:
    from git_memory.store.db import StateDB
    from git_memory.store.session import Workspace

TASK_STATES = ("pending", "claimed", "submitted", "stale")
CANDIDATE_STATES = ("draft", "quarantined", "promoted", "discarded")
CHUNK_STATES = ("pending", "drafted", "extracted", "stale")


def counts(state: Workspace | None) -> dict[str, Any]:
    """Tasks, candidates and chunks by state; approved entries, generation and coverage
    (the approved projection synced first).

    Promotions are counted by the promotion subsystem's own contributor. Nothing is created
    when the state DB does not exist yet (`state` None).
    """
    if state is None:
        return _empty()
    state.synced()
    db, owner = state.db, state.owner
    with db.read():
        keys = (owner.repository_key, owner.worktree_key)
        return {
            "tasks": _by_state(db, "tasks", "status", TASK_STATES, keys),
            "candidates": _by_state(db, "candidates", "status", CANDIDATE_STATES, keys),
            # Quarantined builtin candidates no extract run has offered review yet.
            "waiting": waiting_count(db, owner),
            "chunks": _by_state(db, "chunks", "status", CHUNK_STATES, keys),
            "approved": _approved(state),
        }


def _empty() -> dict[str, Any]:
    return {
        "tasks": dict.fromkeys(TASK_STATES, 0),
        "candidates": dict.fromkeys(CANDIDATE_STATES, 0),
        "waiting": 0,
        "chunks": dict.fromkeys(CHUNK_STATES, 0),
        # No command has read this worktree's memory yet: nothing is indexed, by design
        # (status creates no state), which is not the same as a scan that drifted.
        "approved": {"entries": 0, "retired": 0, "generation": 0, "coverage": "unsynced"},
    }


def _by_state(
    db: StateDB, table: str, column: str, states: tuple[str, ...], keys: tuple[str, str]
) -> dict[str, int]:
    found = dict.fromkeys(states, 0)
    for row in db.rows(
        f"SELECT {column}, count(*) FROM {table} WHERE repository_key = ? AND worktree_key = ?"
        f" GROUP BY {column}",
        keys,
    ):
        found[row[0]] = row[1]
    return found


def _approved(state: Workspace) -> dict[str, Any]:
    sync = state.synced()
    # A retired entry keeps its file (`status: deprecated`) but is no longer approved memory:
    # `list`, `verify` and the assembled block leave it out, and so does this count.
    by_status = dict.fromkeys(("approved", "deprecated"), 0)
    for row in state.db.rows(
        "SELECT status, count(*) FROM approved_entries"
        " WHERE repository_key = ? AND worktree_key = ? GROUP BY status",
        (state.owner.repository_key, state.owner.worktree_key),
    ):
        by_status[row[0]] = row[1]
    return {
        "entries": by_status["approved"],
        "retired": by_status["deprecated"],
        "generation": sync.generation,
        "coverage": sync.coverage,
    }
