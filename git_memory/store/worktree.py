"""Opening the memory state for a discovered worktree, with the approved projection synced."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from git_memory.contracts.extraction import OwnerKeys
from git_memory.store.approved import SyncResult, sync_approved
from git_memory.store.chunks import bind_repository
from git_memory.store.db import StateDB, open_state

if TYPE_CHECKING:
    from git_memory.contracts.binding import RepositoryBinding
    from git_memory.repo.binding import Worktree


@dataclass
class WorktreeState:
    """An open state DB, the worktree's owner keys and (when asked for) the last sync."""

    db: StateDB
    owner: OwnerKeys
    binding: RepositoryBinding
    sync: SyncResult | None = None

    def close(self) -> None:
        """Close the DB."""
        self.db.close()


def open_worktree_state(worktree: Worktree, *, sync: bool = False) -> WorktreeState:
    """Open `memory-state.sqlite3`, record the binding, and optionally sync approved memory.

    Every read of approved memory syncs first; the sync is stat-only when nothing changed.
    """
    binding = worktree.binding()
    db = open_state(worktree.state_home)
    try:
        owner = OwnerKeys(repository_key=binding.repository_key, worktree_key=binding.worktree_key)
        known = db.scalar(
            "SELECT root_realpath FROM repository_bindings"
            " WHERE repository_key = ? AND worktree_key = ? AND memory_root = ?",
            (owner.repository_key, owner.worktree_key, binding.memory_root),
        )
        if known != str(worktree.root):
            bind_repository(db, binding.to_json(), str(worktree.root))
        state = WorktreeState(db, owner, binding)
        if sync:
            state.sync = sync_approved(db, owner, worktree.root, worktree.memory_root)
    except BaseException:
        db.close()
        raise
    return state
