"""The freshness seam: which approved entries are known to be stale and stay out of context.

Assembly asks one function for the ids of stale entries (`Freshness`). The answer is part of
the block's cache key, so it should be cheap: a freshness check that inspects the worktree is
expected to record its verdicts and answer from that record, which `verify.recorded` does.
Deprecated and superseded entries are left out regardless, by the entry loader;
`no_stale_entries` is the verdict for callers that check nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from git_memory.verify.recorded import context_stale_ids

if TYPE_CHECKING:
    from git_memory.store.session import Workspace

# Asked with the snapshot's open workspace, its approved projection synced.
Freshness = Callable[["Workspace"], frozenset[str]]


def no_stale_entries(workspace: Workspace) -> frozenset[str]:
    """The default verdict: nothing is known to be stale."""
    del workspace
    return frozenset()


def freshness_check() -> Freshness:
    """The freshness check assembly and `context` use: the stale entry ids `git memory
    verify` would report, answered from a record while nothing they depend on changed
    (docs/guide-verify.md)."""
    return context_stale_ids
