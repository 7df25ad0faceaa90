"""The entries most similar to each draft, for de-duplication: two BM25 lists fused by rank.

For each draft: the owner's approved entries and visible entry candidates (quarantined, and
the drafts of the draft's own batch, the draft itself excluded so siblings stay visible; a
draft of another batch is not memory yet and never counts as covering one), 3·k hits each.
Reciprocal rank fusion `Σ 1/(60 + rank)` with ranks from 1, ties broken by
`(sourceKind, id)`; the top k are kept. Raw BM25 scores are never compared across the two
corpora. `rank_draft` is the pure ranking function; `find_similar` reads the rows (in one
snapshot) through `fts_queries`.

The algorithm's wire name `recall-rrf@1` and the `recall*` fields below (`recallSets`,
`recallQueryDigest`) are written into adjudication tasks and results, candidate rows and
the approved projection, so they keep that spelling.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from git_memory.contracts.canonical import digest
from git_memory.errors import GitMemoryError
from git_memory.store import fts_queries as queries
from git_memory.store.approved import get_projection
from git_memory.store.candidates import candidate_generation, search_text_of
from git_memory.store.db import StateDB
from git_memory.store.fts_queries import FtsHit

if TYPE_CHECKING:
    from git_memory.contracts.extraction import OwnerKeys

ALGORITHM = "recall-rrf@1"  # wire name, stored in artifacts and rows
DEFAULT_K = 5
MAX_K = 50
MAX_DRAFTS = 64
RRF_K = 60
FETCH_FACTOR = 3
SUMMARY_CHARS = 240
APPROVED_ANALYZER = "memory-approved@1"
CANDIDATE_ANALYZER = "memory-extraction@1"


@dataclass(frozen=True)
class Draft:
    """One draft to match: a caller reference, its candidate id (if stored), its text, and
    the extraction task its batch answers (whose sibling drafts it sees)."""

    draft_ref: str
    candidate_id: str | None
    query_text: str
    batch_task_id: str | None = None


@dataclass(frozen=True)
class Ranked:
    """One fused result of a draft."""

    rank: int
    source_kind: str
    id: str


@dataclass
class SimilarResult:
    """Similar sets per draft (wire name `recallSets`), the union pool, both digests and the
    projections seen."""

    recall_sets: list[dict[str, Any]]
    pool: list[dict[str, Any]]
    recall_query_digest: str
    result_set_digest: str
    approved_generation: int
    approved_coverage: str
    candidate_generation: int
    analyzers: dict[str, str] = field(
        default_factory=lambda: {"approved": APPROVED_ANALYZER, "candidate": CANDIDATE_ANALYZER}
    )


def rank_draft(lists: Sequence[Sequence[FtsHit]], k: int) -> list[Ranked]:
    """Fuse ranked lists by RRF (k = 60), tie-break `(sourceKind, id)`, keep the top `k`."""
    scores: dict[tuple[str, str], float] = {}
    for hits in lists:
        for rank, hit in enumerate(hits, start=1):
            key = (hit.source_kind, hit.id)
            scores[key] = scores.get(key, 0.0) + 1.0 / (RRF_K + rank)
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return [Ranked(i, kind, ident) for i, ((kind, ident), _) in enumerate(ordered[:k], start=1)]


def recall_query_digest(owner: OwnerKeys, drafts: Sequence[Draft], k: int) -> str:
    """sha256 of canonical `{algorithm, k, owner, drafts[{draftRef, candidateId, queryText}]}`."""
    return digest(
        {
            "algorithm": ALGORITHM,
            "k": k,
            "owner": owner.to_json(),
            "drafts": [
                {
                    "draftRef": d.draft_ref,
                    "candidateId": d.candidate_id,
                    "queryText": search_text_of(d.query_text),
                }
                for d in drafts
            ],
        }
    )


def result_set_digest(flat: Sequence[dict[str, Any]]) -> str:
    """sha256 of the canonical flattened `[{draftRef, rank, sourceKind, id, revision, …}]`."""
    return digest(list(flat))


def _check(drafts: Sequence[Draft], k: int) -> None:
    if not 1 <= k <= MAX_K:
        raise ValueError(f"k must be 1..{MAX_K}")
    if not 1 <= len(drafts) <= MAX_DRAFTS:
        raise ValueError(f"similarity search takes 1..{MAX_DRAFTS} drafts")
    if len({d.draft_ref for d in drafts}) != len(drafts):
        raise ValueError("draft refs must be unique")


def find_similar(
    db: StateDB,
    owner: OwnerKeys,
    drafts: Sequence[Draft],
    *,
    k: int = DEFAULT_K,
    require_complete: bool = True,
) -> SimilarResult:
    """Run `recall-rrf@1` for `drafts` against the owner's approved and candidate FTS.

    With `require_complete`, a partial (or never synced) approved projection is refused with
    `GM_APPROVED_COVERAGE_PARTIAL`: deduplication against half the approved memory is unsafe.
    """
    _check(drafts, k)
    with db.read():
        projection = get_projection(db, owner)
        coverage = projection.coverage if projection else "partial"
        if require_complete and coverage != "complete":
            raise GitMemoryError(
                "GM_APPROVED_COVERAGE_PARTIAL",
                "approved memory is not completely indexed (files changed during the last sync)",
                hint="run the command again; the approved projection re-syncs first",
            )
        sets, pool, flat = _rank_all(db, owner, drafts, k)
        generation = candidate_generation(db, owner)
    return SimilarResult(
        recall_sets=sets,
        pool=[pool[key] for key in sorted(pool)],
        recall_query_digest=recall_query_digest(owner, drafts, k),
        result_set_digest=result_set_digest(flat),
        approved_generation=projection.generation if projection else 0,
        approved_coverage=coverage,
        candidate_generation=generation,
    )


def _rank_all(
    db: StateDB, owner: OwnerKeys, drafts: Sequence[Draft], k: int
) -> tuple[list[dict[str, Any]], dict[tuple[str, str], dict[str, Any]], list[dict[str, Any]]]:
    sets: list[dict[str, Any]] = []
    pool: dict[tuple[str, str], dict[str, Any]] = {}
    flat: list[dict[str, Any]] = []
    for draft in drafts:
        match = queries.match_expression(search_text_of(draft.query_text))
        lists: list[list[FtsHit]] = [[], []]
        if match is not None:
            lists = [
                queries.approved_hits(db, owner, match, FETCH_FACTOR * k),
                queries.candidate_hits(
                    db,
                    owner,
                    match,
                    FETCH_FACTOR * k,
                    draft.candidate_id,
                    batch_task_id=draft.batch_task_id,
                ),
            ]
        by_key = {(h.source_kind, h.id): h for hits in lists for h in hits}
        ordered = rank_draft(lists, k)
        sets.append(
            {
                "draftRef": draft.draft_ref,
                "ordered": [
                    {"rank": r.rank, "sourceKind": r.source_kind, "id": r.id} for r in ordered
                ],
            }
        )
        for r in ordered:
            hit = by_key[(r.source_kind, r.id)]
            pool[(hit.source_kind, hit.id)] = _pool_item(hit)
            flat.append({"draftRef": draft.draft_ref, "rank": r.rank, **_identity(hit)})
    return sets, pool, flat


def _identity(hit: FtsHit) -> dict[str, Any]:
    return {
        "sourceKind": hit.source_kind,
        "id": hit.id,
        "revision": hit.revision,
        "contentDigest": hit.content_digest,
        "state": hit.state,
    }


def _pool_item(hit: FtsHit) -> dict[str, Any]:
    return {**_identity(hit), "summary": hit.summary[:SUMMARY_CHARS]}
