"""What one `extract` run offers review: at most `memory.extractLimit` new candidates.

The builtin extractor stages every memory a window shows with what corroborates it
(`store/offers.py`); this step then offers review the waiting ones of highest rank, up to the
limit, and says how many more wait. Nothing is lost: a later run offers the next ones (the
same run with a higher limit offers more at once), and a window that shows a waiting memory
again raises its rank.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from git_memory.extract.select import positive_setting
from git_memory.records import Record
from git_memory.store.offers import offer_waiting, waiting_count

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree
    from git_memory.store.session import Workspace

DEFAULT_EXTRACT_LIMIT = 20
LIMIT_KEY = "memory.extractLimit"


class Offered(Record):
    """The candidates a run offered (highest rank first) and how many more wait."""

    candidate_ids: list[str]
    waiting: int


def extract_limit(worktree: Worktree) -> int:
    """`memory.extractLimit` (git config): new candidates one run offers, default 20."""
    return positive_setting(worktree, LIMIT_KEY, DEFAULT_EXTRACT_LIMIT)


def offer(workspace: Workspace) -> Offered:
    """Offer review the waiting candidates of highest rank, up to the configured limit."""
    limit = extract_limit(workspace.worktree)
    chosen = offer_waiting(workspace.db, workspace.owner, limit)
    return Offered(chosen, waiting_count(workspace.db, workspace.owner))
