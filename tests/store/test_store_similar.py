"""Similar entries (`recall-rrf@1`): fusion, self exclusion, owner scope, pool and both digests."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from git_memory.contracts.extraction import OwnerKeys
from git_memory.errors import GitMemoryError
from git_memory.store import candidates as cands
from git_memory.store.approved import sync_approved
from git_memory.store.db import StateDB
from git_memory.store.fts_queries import FtsHit, match_expression, query_tokens
from git_memory.store.similar import Draft, find_similar, rank_draft
from tests.store.test_store_approved import write_entry

OWNER = OwnerKeys(repository_key="a" * 64, worktree_key="b" * 64)
OTHER = OwnerKeys(repository_key="c" * 64, worktree_key="d" * 64)


def _hit(kind: str, ident: str) -> FtsHit:
    return FtsHit(kind, ident, 1, "0" * 64, "draft", "")


def test_rrf_interleaves_lists_with_approved_first_on_ties() -> None:
    approved = [_hit("approved", "z-appr"), _hit("approved", "a-appr")]
    candidate = [_hit("candidate", "b-cand"), _hit("candidate", "a-cand"), _hit("candidate", "c")]
    ranked = rank_draft([approved, candidate], 4)
    assert [(r.rank, r.source_kind, r.id) for r in ranked] == [
        (1, "approved", "z-appr"),
        (2, "candidate", "b-cand"),
        (3, "approved", "a-appr"),
        (4, "candidate", "a-cand"),
    ]
    # an item in both lists sums its reciprocal ranks and wins
    both = rank_draft([[_hit("approved", "x"), _hit("approved", "y")], [_hit("approved", "y")]], 2)
    assert [r.id for r in both] == ["y", "x"]


def test_query_building_follows_the_analyzer() -> None:
    assert query_tokens("Foo-bar foo_BAR, baz! 日本語") == ["foo", "bar", "baz", "日本語"]
    assert match_expression("a b") == '"a" OR "b"'
    assert match_expression("?? --") is None
    assert len(query_tokens(" ".join(f"w{i}" for i in range(40)))) == 32


@pytest.fixture
def db(db: StateDB, tmp_path: Path) -> StateDB:
    """The shared fixture's database with two approved entries and candidates synced in."""
    root = tmp_path / "wt"
    write_entry(root, "wal-mode", "sqlite wal mode lets readers continue\n")
    write_entry(root, "lease-epoch", "claims bump the lease epoch\n")
    sync_approved(db, OWNER, root, ".memory")
    for cid, text in (
        ("cand-1", "sqlite wal readers and writers"),
        ("cand-2", "sqlite wal checkpoint"),
        ("cand-3", "sqlite wal discarded idea"),
    ):
        cands.insert_candidate(
            db,
            candidate_id=cid,
            owner=OWNER,
            kind="entry",
            payload={"c": text},
            content=text,
            task_id="batch-1",
        )
    cands.discard(db, "cand-3", expected_revision=1)
    cands.insert_candidate(
        db, candidate_id="other-1", owner=OTHER, kind="entry", payload={}, content="sqlite wal"
    )
    cands.insert_candidate(
        db, candidate_id="skill-1", owner=OWNER, kind="skill", payload={}, content="sqlite wal"
    )
    return db


def test_similar_sets_pool_and_digests(db: StateDB) -> None:
    drafts = [
        Draft("d1", "cand-1", "sqlite wal readers and writers", batch_task_id="batch-1"),
        Draft("d2", None, "lease epoch"),
    ]
    result = find_similar(db, OWNER, drafts, k=5)
    ordered = {
        s["draftRef"]: [(o["sourceKind"], o["id"]) for o in s["ordered"]]
        for s in result.recall_sets
    }
    assert ordered["d1"] == [("approved", "wal-mode"), ("candidate", "cand-2")]
    assert ordered["d2"] == [("approved", "lease-epoch")]
    assert [(p["sourceKind"], p["id"]) for p in result.pool] == [
        ("approved", "lease-epoch"),
        ("approved", "wal-mode"),
        ("candidate", "cand-2"),
    ]
    cand2 = cands.get_candidate(db, "cand-2")
    assert cand2 is not None
    assert result.pool[2] == {
        "sourceKind": "candidate",
        "id": "cand-2",
        "revision": 1,
        "contentDigest": cand2.content_digest,
        "state": "draft",
        "summary": "sqlite wal checkpoint",
    }

    def sha(value: object) -> str:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()

    assert result.recall_query_digest == sha(
        {
            "algorithm": "recall-rrf@1",
            "k": 5,
            "owner": {"repositoryKey": "a" * 64, "worktreeKey": "b" * 64},
            "drafts": [
                {"draftRef": "d1", "candidateId": "cand-1", "queryText": drafts[0].query_text},
                {"draftRef": "d2", "candidateId": None, "queryText": "lease epoch"},
            ],
        }
    )
    pool = {(p["sourceKind"], p["id"]): p for p in result.pool}
    flat = [
        {"draftRef": ref, "rank": rank, **{k: v for k, v in pool[key].items() if k != "summary"}}
        for ref in ("d1", "d2")
        for rank, key in enumerate(ordered[ref], start=1)
    ]
    assert result.result_set_digest == sha(flat)
    assert (result.approved_generation, result.approved_coverage) == (1, "complete")


def test_drafts_of_another_batch_are_not_in_the_pool(db: StateDB) -> None:
    """A draft no adjudication has decided is not memory: only its own batch sees it."""
    text = "sqlite wal readers and writers"
    elsewhere = find_similar(db, OWNER, [Draft("d1", None, text, batch_task_id="batch-2")])
    assert [(p["sourceKind"], p["id"]) for p in elsewhere.pool] == [("approved", "wal-mode")]
    cands.quarantine(db, "cand-2", expected_revision=1)
    after = find_similar(db, OWNER, [Draft("d1", None, text, batch_task_id="batch-2")])
    assert ("candidate", "cand-2") in [(p["sourceKind"], p["id"]) for p in after.pool]


def test_result_digest_moves_with_a_pool_revision(db: StateDB) -> None:
    drafts = [Draft("d1", "cand-1", "sqlite wal readers and writers", batch_task_id="batch-1")]
    before = find_similar(db, OWNER, drafts)
    again = find_similar(db, OWNER, drafts)
    assert before.result_set_digest == again.result_set_digest
    cands.quarantine(db, "cand-2", expected_revision=1)
    after = find_similar(db, OWNER, drafts)
    assert after.result_set_digest != before.result_set_digest
    assert after.recall_query_digest == before.recall_query_digest


def test_k_truncates_and_partial_coverage_is_refused(db: StateDB) -> None:
    result = find_similar(db, OWNER, [Draft("d1", None, "sqlite wal readers")], k=1)
    assert [o["id"] for o in result.recall_sets[0]["ordered"]] == ["wal-mode"]
    with pytest.raises(ValueError, match="k must be"):
        find_similar(db, OWNER, [Draft("d1", None, "x")], k=0)
    db.execute("UPDATE approved_projection SET coverage = 'partial'")
    with pytest.raises(GitMemoryError) as caught:
        find_similar(db, OWNER, [Draft("d1", None, "sqlite")])
    assert caught.value.code == "GM_APPROVED_COVERAGE_PARTIAL"
    loose = find_similar(db, OWNER, [Draft("d1", None, "sqlite")], require_complete=False)
    assert loose.approved_coverage == "partial"
