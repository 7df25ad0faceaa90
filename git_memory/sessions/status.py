"""Session counts for `git memory status`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from git_memory.sessions import index
from git_memory.sessions.listing import list_sessions

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree


def counts(worktree: Worktree) -> dict[str, int]:
    """Indexed sessions and turns, and the sessions of this worktree."""

    if not index.index_path(worktree.state_home).exists():
        return {"indexed": 0, "turns": 0, "worktree": 0}
    with index.reader(worktree.state_home) as conn:
        indexed = conn.execute("SELECT count(*), coalesce(sum(turns), 0) FROM sessions").fetchone()
    mine = list_sessions(worktree, all_worktrees=False, since=None, until=None, provider=None)
    return {"indexed": int(indexed[0]), "turns": int(indexed[1]), "worktree": len(mine)}
