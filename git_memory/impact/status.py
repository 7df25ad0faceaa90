"""Impact for `git memory status`: the verdict counts and the team's summary line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from git_memory.impact.report import impact
from git_memory.sessions import index

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree


def counts(worktree: Worktree) -> dict[str, Any]:
    """Status contributor: how many approved traps, rules and commands are measured, the
    count per verdict and the summary line (`git memory impact` shows each entry). Nothing
    is measured before the session index exists."""

    if not index.index_path(worktree.state_home).exists():
        return {"measured": 0}
    response = impact(worktree)
    return {
        "measured": len(response.entries),
        "verdicts": response.verdicts,
        "summary": response.summary,
    }
