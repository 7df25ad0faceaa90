"""Freshness for `git memory status`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from git_memory.store.approved import get_projection
from git_memory.verify import check
from git_memory.verify.recorded import context_counts

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree
    from git_memory.store.session import Workspace


def counts(worktree: Worktree, workspace: Workspace | None) -> dict[str, int]:
    """Status contributor: approved memories by freshness (`git memory verify` lists them),
    from the record assembly keeps while nothing they depend on changed. Before some command
    synced this worktree's approved projection, status creates no state: it checks and
    records nothing."""

    if workspace is None or get_projection(workspace.db, workspace.owner) is None:
        return check.counts(check.verify_memory(worktree))
    return context_counts(workspace)
