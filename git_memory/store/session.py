"""The memory state of one worktree, opened once per operation.

Opening binds the worktree in the private DB and brings the approved projection up to date
(stat-only when nothing changed), so every flow reads approved memory that matches the files.
`open_workspace` owns its SQLite connection: use it as a context manager, which closes it.
The operation (ops/) opens it and passes it down typed; nothing below ops/ opens one
(tests/test_workspace_boundary.py), and no operation holds two at once
(tests/ops/test_one_workspace.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from git_memory.contracts.extraction import OwnerKeys
from git_memory.store.approved import ApprovedSyncResult, sync_approved
from git_memory.store.chunks import bind_repository
from git_memory.store.db import StateDB, open_state

if TYPE_CHECKING:
    from git_memory.contracts.binding import RepositoryBinding
    from git_memory.repo.binding import Worktree


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
    # The approved projection's sync, when opening did one.
    sync: ApprovedSyncResult | None = None

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the state DB."""
        self.db.close()

    @property
    def database_uuid(self) -> str:
        """The memory-state DB's uuid (bound into tasks: a new DB invalidates them)."""
        value = self.db.scalar("SELECT value FROM memory_state_meta WHERE key = 'memoryStateUuid'")
        return str(value)

    def synced(self) -> ApprovedSyncResult:
        """The approved projection as synced by this operation: synced now when opening did
        not, then kept, so every reader of one operation sees the same sync."""
        if self.sync is None:
            self.sync = self.sync_approved()
        return self.sync

    def sync_approved(self) -> ApprovedSyncResult:
        """Re-sync the approved projection from the worktree's entry files."""
        return sync_approved(self.db, self.owner, self.worktree.root, self.worktree.memory_root)


def open_workspace(worktree: Worktree, *, sync: bool = True) -> Workspace:
    """Open `memory-state.sqlite3` for `worktree`, record its binding and (by default) sync
    approved memory; use the result in a `with` block so the DB is closed.

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
        workspace = Workspace(worktree=worktree, binding=binding, db=db, owner=owner)
        if sync:
            workspace.sync = sync_approved(db, owner, worktree.root, worktree.memory_root)
    except BaseException:
        db.close()
        raise
    return workspace
