"""What a harvest does with each item of an agents' memory store, decided once for harvest
and for status, so status's "N agent memory items to review" is the number harvest offers.

An item is
- `unchanged`: harvested before at this very text (offered then, or found approved then);
- `decided`: edited back to a text a person already decided on (its candidate promoted or
  discarded): not asked again;
- `approved`: approved memory already holds its substance (an edited item is compared with
  approved memory other than the entry its earlier text became);
- `offer`: new, or edited since the last harvest: it goes to the review queue (an edit of
  an item that became an entry, as an update of that entry).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from git_memory.agent_memory.read import read_store
from git_memory.contracts.canonical import digest
from git_memory.extract.builtin.window import memory_keys
from git_memory.store import agent_memory as harvest_state
from git_memory.store import candidates as store
from git_memory.store.approved import list_approved_entries
from git_memory.store.approved_scan import Signature, list_entries, scan_one

if TYPE_CHECKING:
    from git_memory.agent_memory.items import MemoryItem
    from git_memory.agent_memory.stores import FoundStore
    from git_memory.repo.binding import Worktree
    from git_memory.store.session import Workspace

Decision = Literal["unchanged", "decided", "approved", "offer"]
# (entry id, normalized body) of every approved entry.
Approved = list[tuple[str, str]]


def approved_bodies(workspace: Workspace) -> Approved:
    """(entry id, normalized body) of every approved entry."""
    rows = list_approved_entries(workspace.db, workspace.owner)
    return [(row["entry_id"], normalized(row["body_text"])) for row in rows]


def normalized(text: str) -> str:
    """Case and spacing folded, as two texts of one memory are compared."""
    return " ".join(text.casefold().split())


def decide(
    workspace: Workspace,
    item: MemoryItem,
    previous: harvest_state.HarvestedItem | None,
    approved: Approved,
) -> tuple[Decision, str | None]:
    """What a harvest does with `item`, and the entry its earlier text became (if any)."""
    if previous is not None and previous.content_digest == item.digest:
        return "unchanged", None
    existing = store.get_candidate(workspace.db, candidate_id(item))
    if existing is not None and existing.status != "quarantined":
        return "decided", None
    target = entry_of(workspace, previous, approved)
    if _held(item, [body for entry, body in approved if entry != target]):
        return "approved", target
    return "offer", target


def candidate_id(item: MemoryItem) -> str:
    """The candidate an item's text becomes (one per store, item and text)."""
    return f"harvest-{digest([item.store, item.key, item.digest])[:16]}-c1"


def entry_of(
    workspace: Workspace, previous: harvest_state.HarvestedItem | None, approved: Approved
) -> str | None:
    """The approved entry the item's earlier text became (its promoted candidate's content)."""
    if previous is None or previous.candidate_id is None:
        return None
    earlier = store.get_candidate(workspace.db, previous.candidate_id)
    if earlier is None or earlier.status != "promoted":
        return None
    text = normalized(str(earlier.payload.get("content", "")))
    return next((entry for entry, body in approved if body == text), None)


def counts(
    worktree: Worktree, workspace: Workspace | None, stores: list[FoundStore]
) -> dict[str, int]:
    """Status: the stores found, the items a harvest would offer for review now
    (`unharvested`) and the harvested items waiting in review. Creates no state
    (`workspace` None when there is none yet)."""
    items = [item for found in stores for item in read_store(found, worktree.root)[0]]
    if workspace is None:
        # Nothing harvested here yet: an item is offered unless the memory files hold it.
        held = [body for _, body in approved_in_files(worktree)]
        offer = sum(not _held(item, held) for item in items)
        return {"stores": len(stores), "unharvested": offer, "inReview": 0}
    prior = harvest_state.harvested_items(workspace.db, workspace.owner)
    approved = approved_bodies(workspace)
    decisions = [decide(workspace, i, prior.get((i.store, i.key)), approved)[0] for i in items]
    return {
        "stores": len(stores),
        "unharvested": decisions.count("offer"),
        "inReview": harvest_state.waiting_count(workspace.db, workspace.owner),
    }


def approved_in_files(worktree: Worktree) -> Approved:
    """(entry id, normalized body) of every approved entry file of the memory root, read
    as the approved projection reads them (for a worktree without state yet)."""
    if not worktree.memory_dir.is_dir():
        return []
    root, memory_root = worktree.root, worktree.memory_root
    rows = [scan_one(root, memory_root, path, listed).row for path, listed in _listed(worktree)]
    return [
        (row["entry_id"], normalized(row["body_text"]))
        for row in rows
        if row is not None and row["status"] == "approved"
    ]


def _listed(worktree: Worktree) -> list[tuple[str, Signature | None]]:
    return sorted(list_entries(worktree.root, worktree.memory_root).items())


def _held(item: MemoryItem, bodies: list[str]) -> bool:
    keys = memory_keys(item.content.strip())
    return any(keys & memory_keys(body) or body == normalized(item.content) for body in bodies)
