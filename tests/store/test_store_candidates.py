"""Candidates: revision CAS, FTS kept in step with status, evidence, assessments, chunks."""

from __future__ import annotations

import pytest

from git_memory.contracts.extraction import OwnerKeys
from git_memory.errors import GitMemoryError
from git_memory.store import candidates as cands
from git_memory.store import chunks
from git_memory.store.db import StateDB

OWNER = OwnerKeys(repository_key="a" * 64, worktree_key="b" * 64)


def _matches(db: StateDB, word: str) -> list[str]:
    return [
        row[0]
        for row in db.rows(
            "SELECT c.candidate_id FROM candidate_fts JOIN candidates c"
            " ON c.seq = candidate_fts.rowid WHERE candidate_fts MATCH ? ORDER BY 1",
            (word,),
        )
    ]


def _new(db: StateDB, cid: str, content: str, kind: str = "entry") -> cands.Candidate:
    return cands.insert_candidate(
        db, candidate_id=cid, owner=OWNER, kind=kind, payload={"content": content}, content=content
    )


def test_insert_indexes_entry_drafts_only(db: StateDB) -> None:
    first = _new(db, "c1", "pytest fixtures need isolation")
    _new(db, "s1", "pytest skill body", kind="skill")
    assert first.revision == 1
    assert first.status == "draft"
    assert _matches(db, "pytest") == ["c1"]
    assert len(first.content_digest) == 64
    with pytest.raises(GitMemoryError) as caught:
        _new(db, "c1", "again")
    assert caught.value.code == "GM_CANDIDATE_EXISTS"


def test_revision_cas_and_terminal_states(db: StateDB) -> None:
    _new(db, "c1", "alpha beta")
    quarantined = cands.quarantine(db, "c1", expected_revision=1)
    assert (quarantined.revision, quarantined.status) == (2, "quarantined")
    assert _matches(db, "alpha") == ["c1"]
    with pytest.raises(GitMemoryError) as caught:
        cands.discard(db, "c1", expected_revision=1)
    assert caught.value.code == "GM_REVISION_CONFLICT"
    discarded = cands.discard(db, "c1", expected_revision=2)
    assert discarded.revision == 3
    assert _matches(db, "alpha") == []
    with pytest.raises(GitMemoryError) as caught:
        cands.quarantine(db, "c1", expected_revision=3)
    assert caught.value.code == "GM_CANDIDATE_STATE_INVALID"
    with pytest.raises(GitMemoryError) as caught:
        cands.require_candidate(db, "missing")
    assert caught.value.code == "GM_CANDIDATE_NOT_FOUND"


def test_payload_replacement_reindexes(db: StateDB) -> None:
    _new(db, "c1", "old words")
    updated = cands.update_candidate(
        db, "c1", expected_revision=1, payload={"content": "new text"}, content="new text"
    )
    assert updated.revision == 2
    assert updated.payload == {"content": "new text"}
    assert _matches(db, "old") == []
    assert _matches(db, "new") == ["c1"]
    promoted = cands.mark_promoted(db, "c1", expected_revision=2)
    assert promoted.status == "promoted"
    assert _matches(db, "new") == []


def test_evidence_assessments_generation_and_chunks(db: StateDB) -> None:
    _new(db, "c1", "x")
    ref = cands.EvidenceRef("s1", "ev-1-0123456789ab", "p" * 64, relation="turn", limitations=[])
    cands.add_evidence_refs(db, "c1", [ref], task_id="t1")
    assert cands.evidence_refs(db, "c1") == [
        cands.EvidenceRef(
            "s1", "ev-1-0123456789ab", "p" * 64, relation="turn", limitations=[], detail={}
        )
    ]
    assessment = cands.Assessment("s1", "c" * 64, "direct", [], "typed-fact", "deterministic",
                                  "t" * 64, 1)  # fmt: skip
    cands.set_assessment(db, "c1", assessment)
    assert cands.assessments(db, "c1") == [assessment]
    assert cands.candidate_generation(db, OWNER) == 0
    assert cands.bump_candidate_generation(db, OWNER) == 1
    assert cands.bump_candidate_generation(db, OWNER) == 2
    chunk = chunks.upsert_chunk(
        db, chunk_ref="k1", owner=OWNER, session_key="s", turn_range="0:2", chunk_digest="d"
    )
    assert chunk.status == "pending"
    assert chunks.set_chunk_status(db, "k1", "drafted")
    again = chunks.upsert_chunk(
        db, chunk_ref="k1", owner=OWNER, session_key="s", turn_range="0:2", chunk_digest="d"
    )
    assert again.status == "drafted"  # re-planning keeps the state
    chunks.set_cursor(db, OWNER, "claude", {"offset": 3})
    assert chunks.get_cursor(db, OWNER, "claude") == {"offset": 3}
    drafted = db.rows("SELECT chunk_ref FROM chunks WHERE status = 'drafted' ORDER BY chunk_ref")
    assert [row["chunk_ref"] for row in drafted] == ["k1"]
