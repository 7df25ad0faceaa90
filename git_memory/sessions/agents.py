"""Which coding agents the indexed sessions of a worktree come from (read-only, no sync)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from git_memory.sessions import index
from git_memory.sessions.query import attributed_cwds

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree


def worktree_agents(worktree: Worktree) -> list[str]:
    """The index's provider names (`claude-code`, `gemini-cli` …) of the sessions with turns in
    `worktree`, sorted; empty when nothing is indexed."""

    if not index.index_path(worktree.state_home).exists():
        return []
    with index.reader(worktree.state_home) as conn:
        cwds = attributed_cwds(conn, worktree.root)
        if not cwds:
            return []
        rows = conn.execute(
            "SELECT DISTINCT s.provider FROM turns t JOIN sessions s"
            f" ON s.session_key = t.session_key WHERE t.cwd IN ({','.join('?' * len(cwds))})",
            cwds,
        )
        return sorted(str(row[0]) for row in rows)
