"""Which items of agents' memory stores were harvested, at which content digest.

An item harvested once is not offered again unless its digest changes; the row names the
candidate it became (none when it matched approved memory and nothing was offered).
"""

from __future__ import annotations

from dataclasses import dataclass

from git_memory.contracts.extraction import OwnerKeys
from git_memory.store.db import StateDB, now_ms


@dataclass(frozen=True)
class HarvestedItem:
    """The last harvest of one item: its digest then and the candidate it became."""

    content_digest: str
    candidate_id: str | None


def harvested_items(db: StateDB, owner: OwnerKeys) -> dict[tuple[str, str], HarvestedItem]:
    """(store, item key) → its last harvest, for the owner."""
    rows = db.rows(
        "SELECT store, item_key, content_digest, candidate_id FROM agent_memory_items"
        " WHERE repository_key = ? AND worktree_key = ?",
        (owner.repository_key, owner.worktree_key),
    )
    return {
        (r["store"], r["item_key"]): HarvestedItem(r["content_digest"], r["candidate_id"])
        for r in rows
    }


def record_harvest(
    db: StateDB,
    owner: OwnerKeys,
    *,
    store: str,
    item_key: str,
    digest: str,
    candidate_id: str | None,
) -> None:
    """Remember that `item_key` of `store` was harvested at `digest`."""
    with db.write():
        db.execute(
            "INSERT OR REPLACE INTO agent_memory_items (repository_key, worktree_key, store,"
            " item_key, content_digest, candidate_id, harvested_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                owner.repository_key,
                owner.worktree_key,
                store,
                item_key,
                digest,
                candidate_id,
                now_ms(),
            ),
        )


def waiting_count(db: StateDB, owner: OwnerKeys) -> int:
    """Harvested items whose candidate still waits for review (quarantined)."""
    value = db.scalar(
        "SELECT COUNT(*) FROM agent_memory_items a JOIN candidates c"
        " ON c.candidate_id = a.candidate_id WHERE a.repository_key = ? AND a.worktree_key = ?"
        " AND c.status = 'quarantined'",
        (owner.repository_key, owner.worktree_key),
    )
    return int(value or 0)
