"""Which agents' own memory stores exist for this worktree, and the words `status`,
`harvest` and `extract` count their items with, so one number reads the same everywhere."""

from __future__ import annotations

from typing import TYPE_CHECKING

from git_memory.agent_memory.stores import FoundStore, enabled_stores, locate

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree


def found_stores(worktree: Worktree) -> list[FoundStore]:
    """The stores `memory.sources` turns on that exist for this worktree."""
    specs = enabled_stores(worktree.config_value("memory.sources"))
    return locate(worktree, specs)


def agent_items(number: int) -> str:
    """`1 agent memory item`, `3 agent memory items`."""
    return f"{number} agent memory item{'' if number == 1 else 's'}"
