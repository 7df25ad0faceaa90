"""The freshness seam: which approved entries are known to be stale and stay out of context.

Assembly asks one function for the ids of stale entries (`Freshness`). The answer is part of
the block's cache key, so it should be cheap: a freshness check that inspects the worktree is
expected to record its verdicts and answer from that record. Until such a check exists every
entry counts as fresh (`no_stale_entries`); deprecated and superseded entries are left out
regardless, by the entry loader.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree

Freshness = Callable[[], frozenset[str]]


def no_stale_entries() -> frozenset[str]:
    """The default verdict: nothing is known to be stale."""
    return frozenset()


def freshness_for(worktree: Worktree) -> Freshness:
    """The freshness check assembly and `context` use for `worktree`."""
    del worktree  # every entry counts as fresh until a check records verdicts for it
    return no_stale_entries
