"""Every FTS query over the memory state: `similar`'s BM25 lists, the pool, approved search.

Queries follow the original analyzer: the text is split on non-alphanumeric characters,
lowercased, de-duplicated, the first 32 tokens kept, each quoted, joined with OR. FTS5 uses its
default `unicode61` tokenizer (a CJK run is one token). BM25 ties break on the id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from git_memory.store.db import StateDB

if TYPE_CHECKING:
    from git_memory.contracts.extraction import OwnerKeys

MAX_QUERY_TOKENS = 32
_SPLIT = re.compile(r"[^\w]|_", re.UNICODE)


@dataclass(frozen=True)
class FtsHit:
    """One ranked row of a BM25 list (source kind `approved` or `candidate`)."""

    source_kind: str
    id: str
    revision: int
    content_digest: str
    state: str
    summary: str


@dataclass(frozen=True)
class SearchRow:
    """One approved entry found by `search`."""

    id: str
    type: str
    scene: str
    score: float
    summary: str
    path: str
    revision: int
    content_digest: str
    status: str


def query_tokens(text: str) -> list[str]:
    """The first 32 distinct lowercased alphanumeric runs of `text`."""
    seen: dict[str, None] = {}
    for token in _SPLIT.split(text):
        if token and token.isalnum():
            seen.setdefault(token.lower(), None)
            if len(seen) == MAX_QUERY_TOKENS:
                break
    return list(seen)


def match_expression(text: str) -> str | None:
    """The FTS5 MATCH expression for `text` (None when it has no token)."""
    tokens = query_tokens(text)
    if not tokens:
        return None
    return " OR ".join('"' + token.replace('"', '""') + '"' for token in tokens)


APPROVED_HITS = (
    "SELECT e.entry_id, e.revision, e.content_digest, e.status, e.summary"
    " FROM approved_fts JOIN approved_entries e ON e.seq = approved_fts.rowid"
    " WHERE approved_fts MATCH ? AND e.repository_key = ? AND e.worktree_key = ?"
    " ORDER BY bm25(approved_fts), e.entry_id LIMIT ?"
)

CANDIDATE_HITS = (
    "SELECT c.candidate_id, c.revision, c.content_digest, c.status, c.summary"
    " FROM candidate_fts JOIN candidates c ON c.seq = candidate_fts.rowid"
    " WHERE candidate_fts MATCH ? AND c.repository_key = ? AND c.worktree_key = ?"
    " AND c.kind = 'entry' AND c.candidate_id != ?"
    " AND (c.status = 'quarantined' OR (c.status = 'draft' AND c.task_id = ?))"
    " ORDER BY bm25(candidate_fts), c.candidate_id LIMIT ?"
)

SEARCH = (
    "SELECT e.entry_id, e.type, e.scene, bm25(approved_fts) AS score, e.summary, e.path,"
    " e.revision, e.content_digest, e.status"
    " FROM approved_fts JOIN approved_entries e ON e.seq = approved_fts.rowid"
    " WHERE approved_fts MATCH ? AND e.repository_key = ? AND e.worktree_key = ?"
    " ORDER BY score, e.entry_id LIMIT ?"
)


def approved_hits(db: StateDB, owner: OwnerKeys, match: str, limit: int) -> list[FtsHit]:
    """The owner's approved entries for `match`, best BM25 first."""
    rows = db.rows(APPROVED_HITS, (match, owner.repository_key, owner.worktree_key, limit))
    return [FtsHit("approved", r[0], r[1], r[2], r[3], r[4]) for r in rows]


def candidate_hits(
    db: StateDB,
    owner: OwnerKeys,
    match: str,
    limit: int,
    exclude_id: str | None,
    *,
    batch_task_id: str | None = None,
) -> list[FtsHit]:
    """The owner's quarantined entry candidates for `match`, and the drafts of the batch
    answering `batch_task_id`, minus one id. Drafts of other batches are not memory yet: an
    unadjudicated draft must never make a later draft look covered."""
    params = (
        match,
        owner.repository_key,
        owner.worktree_key,
        exclude_id or "",
        batch_task_id or "",
        limit,
    )
    return [
        FtsHit("candidate", r[0], r[1], r[2], r[3], r[4]) for r in db.rows(CANDIDATE_HITS, params)
    ]


def search_approved(db: StateDB, owner: OwnerKeys, query: str, limit: int) -> list[SearchRow]:
    """Approved entries for a free-text query, by BM25 then id (no token → nothing)."""
    match = match_expression(query)
    if match is None:
        return []
    rows = db.rows(SEARCH, (match, owner.repository_key, owner.worktree_key, limit))
    return [SearchRow(*tuple(row)) for row in rows]
