"""The memory state of one worktree, opened once per operation.

Opening binds the worktree in the private DB and brings the approved projection up to date
(stat-only when nothing changed), so every flow reads approved memory that matches the files.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from git_memory.contracts.binding import RepositoryBinding
from git_memory.store.db import Owner, StateDB


@dataclass
class Workspace:
    """The worktree, its binding, the state DB and the owner keys rows are scoped by."""

    worktree: Any
    binding: RepositoryBinding
    db: StateDB
    owner: Owner

    @property
    def database_uuid(self) -> str:
        """The memory-state DB's uuid (bound into tasks: a new DB invalidates them)."""
        value = self.db.scalar("SELECT value FROM memory_state_meta WHERE key = 'memoryStateUuid'")
        return str(value)

    def sync_approved(self) -> Any:
        """Re-sync the approved projection from the worktree's entry files."""
        from git_memory.store.approved import sync_approved

        return sync_approved(self.db, self.owner, self.worktree.root, self.worktree.memory_root)


def open_workspace(worktree: Any, *, sync: bool = True) -> Workspace:
    """Open the state DB for `worktree`, bind it and (by default) sync approved memory."""
    from git_memory.store.worktree import open_worktree_state

    state = open_worktree_state(worktree, sync=sync)
    return Workspace(worktree=worktree, binding=state.binding, db=state.db, owner=state.owner)
