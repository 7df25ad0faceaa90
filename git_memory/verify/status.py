"""Freshness for `git memory status`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree


def counts(worktree: Worktree) -> dict[str, int]:
    """Status contributor: approved memories by freshness (`git memory verify` lists them),
    from the record assembly keeps while nothing they depend on changed."""
    from git_memory.verify.check import counts as tally
    from git_memory.verify.check import verify_memory
    from git_memory.verify.recorded import context_counts

    if not _projected(worktree):
        return tally(verify_memory(worktree))  # status creates no state: check, record nothing
    return context_counts(worktree)


def _projected(worktree: Worktree) -> bool:
    """Whether some command already synced this worktree's approved projection."""
    from git_memory.paths import MEMORY_STATE_DB
    from git_memory.store.approved import get_projection
    from git_memory.store.session import open_workspace

    if not (worktree.state_home / MEMORY_STATE_DB).exists():
        return False
    state = open_workspace(worktree, sync=False)
    try:
        return get_projection(state.db, state.owner) is not None
    finally:
        state.close()
