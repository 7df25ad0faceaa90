"""What `status` and `doctor` say about agents' own memory for this worktree."""

from __future__ import annotations

from typing import TYPE_CHECKING

from git_memory.agent_memory.read import read_store
from git_memory.agent_memory.stores import FoundStore, enabled_stores, locate
from git_memory.store import agent_memory as harvest_state

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree
    from git_memory.store.session import Workspace


def found_stores(worktree: Worktree) -> list[FoundStore]:
    """The stores `memory.sources` turns on that exist for this worktree."""
    specs = enabled_stores(worktree.config_value("memory.sources"))
    return locate(worktree, specs)


def counts(worktree: Worktree, workspace: Workspace | None) -> dict[str, int]:
    """Stores found, items not harvested at their current text, and harvested items waiting
    in review. Reads no store when none exists; creates no state (`workspace` None when
    there is none yet)."""
    stores = found_stores(worktree)
    if not stores:
        return {"stores": 0, "unharvested": 0, "inReview": 0}
    prior: dict[tuple[str, str], harvest_state.HarvestedItem] = {}
    in_review = 0
    if workspace is not None:
        prior = harvest_state.harvested_items(workspace.db, workspace.owner)
        in_review = harvest_state.waiting_count(workspace.db, workspace.owner)
    unharvested = 0
    for found in stores:
        for item in read_store(found, worktree.root)[0]:
            last = prior.get((item.store, item.key))
            unharvested += last is None or last.content_digest != item.digest
    return {"stores": len(stores), "unharvested": unharvested, "inReview": in_review}
