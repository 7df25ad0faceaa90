"""Benchmark of the similar-entry search (`recall-rrf@1`) against the bare FTS5 queries it is
built on, and of sync-approved.

A deterministic pool (seeded generator, pseudo-words drawn with Zipf-like weights) of approved
entry files and entry candidates is built in a temp directory; then, in one process:
- `sync_cold_s`: `sync_approved` of every entry file into an empty projection (list, no-follow
  read, lint gate, parse, digest, one replacing transaction);
- `sync_noop_s`: the next sync (nothing changed: stat only), `sync_noop_settled_s`: the one
  after; the files are written more than the 1-second racy window before the cold scan, as a
  checkout's are (files newer than that are re-hashed rather than trusted by their stat);
- `p50_ms`/`p95_ms`: `find_similar` of one draft at a time (k = 5: both BM25 lists of 15, fusion,
  pool, both digests, projection reads, one read transaction);
- `fts_floor_*_ms`: for the same drafts, just the two bare
  `… MATCH ? ORDER BY bm25(…) LIMIT 15` queries on the same FTS tables.
Goals: `ratio_to_floor` (p95 / floor p95) ≤ 3 and a no-op sync under 5 % of a cold one.
Prints one JSON line. `--quick` runs a tiny pool (the test suite uses it so this cannot rot).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SEED = 5
SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]


def _vocabulary(rng: random.Random, size: int) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


class Corpus:
    """Deterministic pseudo-text: word frequencies follow 1/rank like natural language."""

    def __init__(self, seed: int, vocabulary: int = 4000) -> None:
        self.rng = random.Random(seed)
        self.words = _vocabulary(self.rng, vocabulary)
        self.weights = [1.0 / (rank + 1) for rank in range(len(self.words))]

    def text(self, low: int, high: int) -> str:
        count = self.rng.randint(low, high)
        return " ".join(self.rng.choices(self.words, self.weights, k=count))


RACY_WINDOW_S = 1.0


def _write_entries(root: Path, corpus: Corpus, count: int) -> None:
    from git_memory.formats.entry import Entry, serialize_entry

    entries = root / ".memory" / "entries"
    entries.mkdir(parents=True)
    for number in range(count):
        entry_id = f"bench-{number:05d}"
        body = corpus.text(20, 60).capitalize() + ".\n"
        (entries / f"{entry_id}.md").write_text(serialize_entry(Entry(id=entry_id, body=body)))


def _insert_candidates(db: Any, owner: Any, corpus: Corpus, count: int) -> None:
    from git_memory.store.candidates import insert_candidate

    with db.write():
        for number in range(count):
            text = corpus.text(15, 50)
            insert_candidate(
                db,
                candidate_id=f"cand-{number:05d}",
                owner=owner,
                kind="entry",
                payload={"content": text},
                content=text,
            )


def _timed(call: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def _p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def _similar_times(db: Any, owner: Any, drafts: list[Any]) -> list[float]:
    from git_memory.store.similar import find_similar

    return [_timed(lambda d=draft: find_similar(db, owner, [d], k=5))[0] for draft in drafts]


def _floor_times(db: Any, drafts: list[Any]) -> list[float]:
    from git_memory.store.candidates import search_text_of
    from git_memory.store.fts_queries import match_expression

    times = []
    for draft in drafts:
        match = match_expression(search_text_of(draft.query_text))
        start = time.perf_counter()
        for table in ("approved_fts", "candidate_fts"):
            db.rows(
                f"SELECT rowid FROM {table} WHERE {table} MATCH ? ORDER BY bm25({table}) LIMIT 15",
                (match,),
            )
        times.append(time.perf_counter() - start)
    return times


def _drafts(db: Any, corpus: Corpus, count: int, candidates: int) -> list[Any]:
    """Half are stored candidates (excluded from their own list), half fresh text."""
    from git_memory.store.candidates import get_candidate
    from git_memory.store.similar import Draft

    drafts = []
    for number in range(count):
        if number % 2 == 0:
            cid = f"cand-{corpus.rng.randrange(candidates):05d}"
            found = get_candidate(db, cid)
            assert found is not None
            drafts.append(Draft(f"d{number}", cid, found.searchable_text))
        else:
            drafts.append(Draft(f"d{number}", None, corpus.text(15, 50)))
    return drafts


def run(approved: int, candidates: int, drafts_count: int) -> dict[str, Any]:
    """Build the pool, time everything, return the measurements."""
    from git_memory.contracts.extraction import OwnerKeys
    from git_memory.store.approved import sync_approved
    from git_memory.store.db import StateDB

    owner = OwnerKeys(repository_key="a" * 64, worktree_key="b" * 64)
    corpus = Corpus(SEED)
    with tempfile.TemporaryDirectory(prefix="gm-bench-similar-") as temp:
        root = Path(temp) / "wt"
        _write_entries(root, corpus, approved)
        # As in a checkout, the files were written a moment before the sync that reads them,
        # not within its 1-second racy window (a file that new is re-hashed, never trusted).
        time.sleep(RACY_WINDOW_S + 0.1)
        db = StateDB(Path(temp) / "memory-state.sqlite3")
        cold, result = _timed(lambda: sync_approved(db, owner, root, ".memory"))
        assert result.entries == approved, result.skipped[:3]
        noop, again = _timed(lambda: sync_approved(db, owner, root, ".memory"))
        settled, third = _timed(lambda: sync_approved(db, owner, root, ".memory"))
        assert not again.changed
        assert not third.changed
        _insert_candidates(db, owner, corpus, candidates)
        drafts = _drafts(db, corpus, drafts_count, candidates)
        _similar_times(db, owner, drafts[:5])  # warm the page cache for both sides alike
        _floor_times(db, drafts[:5])
        similar_s = _similar_times(db, owner, drafts)
        floor_s = _floor_times(db, drafts)
        db.close()
    p95, floor_p95 = _p95(similar_s), _p95(floor_s)
    return {
        "benchmark": "similar",
        "pool": {"approved": approved, "candidates": candidates},
        "drafts": drafts_count,
        "p50_ms": round(statistics.median(similar_s) * 1000, 3),
        "p95_ms": round(p95 * 1000, 3),
        "fts_floor_p50_ms": round(statistics.median(floor_s) * 1000, 3),
        "fts_floor_p95_ms": round(floor_p95 * 1000, 3),
        "ratio_to_floor": round(p95 / floor_p95, 3),
        "sync_files": approved,
        "sync_cold_s": round(cold, 3),
        "sync_noop_s": round(noop, 4),
        "sync_noop_settled_s": round(settled, 4),
        "noop_fraction_of_cold": round(noop / cold, 4),
        "goal_ratio_to_floor_le_3": p95 / floor_p95 <= 3,
        "goal_noop_lt_5pct_of_cold": noop / cold < 0.05,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny pool for the test suite")
    args = parser.parse_args(argv)
    sizes = (300, 300, 30) if args.quick else (10_000, 10_000, 200)
    sys.stdout.write(json.dumps(run(*sizes), sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
