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
    from git_memory.store.chunks import bind_repository
    from git_memory.store.db import open_state

    binding = worktree.binding()
    db = open_state(worktree.state_home)
    owner = bind_repository(db, binding.to_json(), str(worktree.root))
    workspace = Workspace(worktree=worktree, binding=binding, db=db, owner=owner)
    if sync:
        workspace.sync_approved()
    return workspace
