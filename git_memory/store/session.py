"""The memory state of one worktree, opened once per operation.

Opening binds the worktree in the private DB and brings the approved projection up to date
(stat-only when nothing changed), so every flow reads approved memory that matches the files.
`open_workspace` owns its SQLite connection: use it as a context manager, which closes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from git_memory.store.db import StateDB

if TYPE_CHECKING:
    from git_memory.contracts.binding import RepositoryBinding
    from git_memory.contracts.extraction import OwnerKeys
    from git_memory.repo.binding import Worktree
    from git_memory.store.approved import SyncResult


@dataclass
class Workspace:
    """The worktree, its binding, the state DB and the owner keys rows are scoped by.

    A workspace built over a DB its caller opened leaves closing to that caller; one from
    `open_workspace` closes its DB when its `with` block ends.
    """

    worktree: Worktree
    binding: RepositoryBinding
    db: StateDB
    owner: OwnerKeys

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.db.close()

    @property
    def database_uuid(self) -> str:
        """The memory-state DB's uuid (bound into tasks: a new DB invalidates them)."""
        value = self.db.scalar("SELECT value FROM memory_state_meta WHERE key = 'memoryStateUuid'")
        return str(value)

    def sync_approved(self) -> SyncResult:
        """Re-sync the approved projection from the worktree's entry files."""
        from git_memory.store.approved import sync_approved

        return sync_approved(self.db, self.owner, self.worktree.root, self.worktree.memory_root)


def open_workspace(worktree: Worktree, *, sync: bool = True) -> Workspace:
    """Open the state DB for `worktree`, bind it and (by default) sync approved memory; use
    the result in a `with` block so the DB is closed."""
    from git_memory.store.worktree import open_worktree_state

    state = open_worktree_state(worktree, sync=sync)
    return Workspace(worktree=worktree, binding=state.binding, db=state.db, owner=state.owner)
