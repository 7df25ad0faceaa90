"""Candidates with revisions, their evidence refs and assessments, and the candidate projection.

Every change recall can see (status, payload, searchable text) bumps the revision under a
compare-and-set on the expected revision, and the candidate FTS follows in the same
transaction (triggers in the schema). `promoted` and `discarded` are terminal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from git_memory.contracts.canonical import canonical_json, digest
from git_memory.contracts.extraction import CandidateStatus, OwnerKeys
from git_memory.database import Row
from git_memory.errors import GitMemoryError
from git_memory.store.db import StateDB, now_ms

SEARCH_TEXT_CHARS = 1024
SUMMARY_CHARS = 240
ANALYZER_VERSION = "memory-extraction@1"
RECALL_ALGORITHM = "recall-rrf@1"
STATUSES: tuple[CandidateStatus, ...] = ("draft", "quarantined", "promoted", "discarded")
TERMINAL = ("promoted", "discarded")


@dataclass(frozen=True)
class Candidate:
    """One candidate row (the payload is the full, unsanitized document: private)."""

    candidate_id: str
    owner: OwnerKeys
    kind: str
    revision: int
    content_digest: str
    payload: dict[str, Any]
    searchable_text: str
    summary: str
    status: CandidateStatus
    adjudication: str
    chunk_ref: str | None
    task_id: str | None
    updated_at: int


@dataclass(frozen=True)
class EvidenceRef:
    """A statement's citation of one evidence item."""

    statement_id: str
    evidence_id: str
    pointer_digest: str
    session_key: str | None = None
    turn_key: str | None = None
    revision: str | None = None
    payload_sha256: str | None = None
    relation: str | None = None
    strength: str | None = None
    limitations: list[str] | None = None
    detail: dict[str, Any] | None = None


@dataclass(frozen=True)
class Assessment:
    """The deterministic or human assessment of one statement of a candidate."""

    statement_id: str
    citations_digest: str
    provenance_strength: str
    limitations: list[str]
    claim_support: str  # unverified|typed-fact|human-confirmed|drifted
    assessed_by: str  # deterministic|human
    statement_text_digest: str
    revision: int


def _candidate(row: Row) -> Candidate:
    return Candidate(
        candidate_id=row["candidate_id"],
        owner=OwnerKeys(repository_key=row["repository_key"], worktree_key=row["worktree_key"]),
        kind=row["kind"],
        revision=row["revision"],
        content_digest=row["content_digest"],
        payload=json.loads(row["payload_json"]),
        searchable_text=row["searchable_text"],
        summary=row["summary"],
        status=row["status"],
        adjudication=row["adjudication"],
        chunk_ref=row["chunk_ref"],
        task_id=row["task_id"],
        updated_at=row["updated_at"],
    )


def search_text_of(content: str) -> str:
    """What the candidate FTS indexes and a draft's recall query uses: the first 1024 chars."""
    return content[:SEARCH_TEXT_CHARS]


def insert_candidate(
    db: StateDB,
    *,
    candidate_id: str,
    owner: OwnerKeys,
    kind: str,
    payload: dict[str, Any],
    content: str,
    chunk_ref: str | None = None,
    task_id: str | None = None,
    status: str = "draft",
) -> Candidate:
    """Insert a new candidate at revision 1 (FTS-indexed when an entry draft/quarantined).

    `content` is the text recall sees; `content_digest = digest(payload)`. An existing id is
    refused with `GM_CANDIDATE_EXISTS`.
    """
    if status not in ("draft", "quarantined"):
        raise ValueError(f"a new candidate is draft or quarantined, not {status!r}")
    text = search_text_of(content)
    stamp = now_ms()
    with db.write():
        if db.scalar("SELECT 1 FROM candidates WHERE candidate_id = ?", (candidate_id,)):
            raise GitMemoryError("GM_CANDIDATE_EXISTS", f"candidate {candidate_id!r} exists")
        db.execute(
            "INSERT INTO candidates (candidate_id, repository_key, worktree_key, chunk_ref,"
            " task_id, kind, content_digest, payload_json, searchable_text, summary, status,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                candidate_id,
                owner.repository_key,
                owner.worktree_key,
                chunk_ref,
                task_id,
                kind,
                digest(payload),
                canonical_json(payload).decode(),
                text,
                text[:SUMMARY_CHARS],
                status,
                stamp,
                stamp,
            ),
        )
    found = get_candidate(db, candidate_id)
    assert found is not None
    return found


def get_candidate(db: StateDB, candidate_id: str) -> Candidate | None:
    """The candidate, or None."""
    row = db.one("SELECT * FROM candidates WHERE candidate_id = ?", (candidate_id,))
    return None if row is None else _candidate(row)


def require_candidate(db: StateDB, candidate_id: str, owner: OwnerKeys | None = None) -> Candidate:
    """The candidate; `GM_CANDIDATE_NOT_FOUND` when absent or owned by another worktree."""
    found = get_candidate(db, candidate_id)
    if found is None or (owner is not None and found.owner != owner):
        raise GitMemoryError("GM_CANDIDATE_NOT_FOUND", f"no candidate {candidate_id!r}")
    return found


def list_candidates(
    db: StateDB,
    owner: OwnerKeys,
    *,
    statuses: tuple[str, ...] = STATUSES,
    kind: str | None = None,
    limit: int | None = None,
) -> list[Candidate]:
    """The owner's candidates in the given states, by candidate id."""
    marks = ",".join("?" for _ in statuses)
    sql = (
        f"SELECT * FROM candidates WHERE repository_key = ? AND worktree_key = ?"
        f" AND status IN ({marks})"
    )
    params: list[Any] = [owner.repository_key, owner.worktree_key, *statuses]
    if kind is not None:
        sql += " AND kind = ?"
        params.append(kind)
    sql += " ORDER BY candidate_id"
    if limit is not None:
        sql += " LIMIT ?"
        params.append(limit)
    return [_candidate(row) for row in db.rows(sql, params)]


# The rank of a candidate without corroboration (staged by an agent or a model runner,
# harvested): that of a memory one session of one person shows (`corroboration.rank(1, 1)`).
UNRANKED = 1000


def review_queue(
    db: StateDB, owner: OwnerKeys, *, kind: str | None = None, limit: int | None = None
) -> list[Candidate]:
    """The quarantined candidates review shows, the highest rank first (`store/offers.py`):
    a builtin candidate once an extract run has offered it, any other as soon as it is
    quarantined; equal ranks by kind weight, then by candidate id."""
    sql = (
        "SELECT c.* FROM candidates c LEFT JOIN candidate_offers o"
        " ON o.candidate_id = c.candidate_id"
        " WHERE c.repository_key = ? AND c.worktree_key = ? AND c.status = 'quarantined'"
        " AND (o.candidate_id IS NULL OR o.offered_at IS NOT NULL)"
    )
    params: list[Any] = [owner.repository_key, owner.worktree_key]
    if kind is not None:
        sql += " AND c.kind = ?"
        params.append(kind)
    sql += " ORDER BY COALESCE(o.rank, ?) DESC, COALESCE(o.weight, 0) DESC, c.candidate_id"
    params.append(UNRANKED)
    if limit is not None:
        sql += " LIMIT ?"
        params.append(limit)
    return [_candidate(row) for row in db.rows(sql, params)]


def candidate_ids(db: StateDB, owner: OwnerKeys) -> list[str]:
    """Every candidate id of the owner, in any state: what a typed abbreviation is matched
    against."""
    rows = db.rows(
        "SELECT candidate_id FROM candidates WHERE repository_key = ? AND worktree_key = ?",
        (owner.repository_key, owner.worktree_key),
    )
    return [str(row[0]) for row in rows]


def update_candidate(
    db: StateDB,
    candidate_id: str,
    *,
    expected_revision: int,
    status: str | None = None,
    payload: dict[str, Any] | None = None,
    content: str | None = None,
    adjudication: str | None = None,
) -> Candidate:
    """Change a candidate under revision CAS; the revision goes up by one.

    `GM_REVISION_CONFLICT` when the revision moved on, `GM_CANDIDATE_STATE_INVALID` when the
    candidate is already promoted or discarded.
    """
    with db.write():
        current = require_candidate(db, candidate_id)
        if current.revision != expected_revision:
            raise GitMemoryError(
                "GM_REVISION_CONFLICT",
                f"candidate {candidate_id!r} is at revision {current.revision}, "
                f"not {expected_revision}",
                hint="re-read the candidate and decide again",
                details={"currentRevision": current.revision},
            )
        if current.status in TERMINAL:
            raise GitMemoryError(
                "GM_CANDIDATE_STATE_INVALID",
                f"candidate {candidate_id!r} is already {current.status}",
            )
        if status is not None and status not in STATUSES:
            raise ValueError(f"unknown candidate status {status!r}")
        new_payload = current.payload if payload is None else payload
        text = current.searchable_text if content is None else search_text_of(content)
        db.execute(
            "UPDATE candidates SET status = ?, payload_json = ?, content_digest = ?,"
            " searchable_text = ?, summary = ?, adjudication = ?, revision = revision + 1,"
            " updated_at = ? WHERE candidate_id = ? AND revision = ?",
            (
                status or current.status,
                canonical_json(new_payload).decode(),
                digest(new_payload),
                text,
                text[:SUMMARY_CHARS],
                adjudication or current.adjudication,
                now_ms(),
                candidate_id,
                expected_revision,
            ),
        )
        return require_candidate(db, candidate_id)


def quarantine(db: StateDB, candidate_id: str, *, expected_revision: int) -> Candidate:
    """draft → quarantined (awaiting review)."""
    return update_candidate(
        db, candidate_id, expected_revision=expected_revision, status="quarantined"
    )


def discard(db: StateDB, candidate_id: str, *, expected_revision: int) -> Candidate:
    """→ discarded (leaves the FTS in the same transaction)."""
    return update_candidate(
        db, candidate_id, expected_revision=expected_revision, status="discarded"
    )


def mark_promoted(db: StateDB, candidate_id: str, *, expected_revision: int) -> Candidate:
    """quarantined → promoted (de-indexed; used by the promotion finalize transaction)."""
    return update_candidate(
        db, candidate_id, expected_revision=expected_revision, status="promoted"
    )


def add_evidence_refs(
    db: StateDB, candidate_id: str, refs: list[EvidenceRef], *, task_id: str | None = None
) -> None:
    """Record the evidence each statement cites (replacing an identical key)."""
    with db.write():
        db.executemany(
            "INSERT OR REPLACE INTO evidence_refs (candidate_id, statement_id, evidence_id,"
            " pointer_digest, session_key, turn_key, revision, payload_sha256, relation,"
            " strength, limitations_json, detail_json, task_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    candidate_id,
                    ref.statement_id,
                    ref.evidence_id,
                    ref.pointer_digest,
                    ref.session_key,
                    ref.turn_key,
                    ref.revision,
                    ref.payload_sha256,
                    ref.relation,
                    ref.strength,
                    None if ref.limitations is None else json.dumps(ref.limitations),
                    canonical_json(ref.detail or {}).decode(),
                    task_id,
                )
                for ref in refs
            ],
        )


def evidence_refs(db: StateDB, candidate_id: str) -> list[EvidenceRef]:
    """A candidate's evidence refs by (statement, evidence) id."""
    return [
        EvidenceRef(
            statement_id=row["statement_id"],
            evidence_id=row["evidence_id"],
            pointer_digest=row["pointer_digest"],
            session_key=row["session_key"],
            turn_key=row["turn_key"],
            revision=row["revision"],
            payload_sha256=row["payload_sha256"],
            relation=row["relation"],
            strength=row["strength"],
            limitations=None
            if row["limitations_json"] is None
            else json.loads(row["limitations_json"]),
            detail=json.loads(row["detail_json"]),
        )
        for row in db.rows(
            "SELECT * FROM evidence_refs WHERE candidate_id = ? ORDER BY statement_id, evidence_id",
            (candidate_id,),
        )
    ]


def set_assessment(db: StateDB, candidate_id: str, assessment: Assessment) -> None:
    """Insert or replace the assessment of one statement."""
    with db.write():
        db.execute(
            "INSERT OR REPLACE INTO assessments (candidate_id, statement_id, citations_digest,"
            " provenance_strength, limitations_json, claim_support, assessed_by,"
            " statement_text_digest, revision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                candidate_id,
                assessment.statement_id,
                assessment.citations_digest,
                assessment.provenance_strength,
                json.dumps(assessment.limitations),
                assessment.claim_support,
                assessment.assessed_by,
                assessment.statement_text_digest,
                assessment.revision,
            ),
        )


def assessments(db: StateDB, candidate_id: str) -> list[Assessment]:
    """A candidate's assessments by statement id."""
    return [
        Assessment(
            statement_id=row["statement_id"],
            citations_digest=row["citations_digest"],
            provenance_strength=row["provenance_strength"],
            limitations=json.loads(row["limitations_json"]),
            claim_support=row["claim_support"],
            assessed_by=row["assessed_by"],
            statement_text_digest=row["statement_text_digest"],
            revision=row["revision"],
        )
        for row in db.rows(
            "SELECT * FROM assessments WHERE candidate_id = ? ORDER BY statement_id",
            (candidate_id,),
        )
    ]


def candidate_generation(db: StateDB, owner: OwnerKeys) -> int:
    """The owner's candidate projection generation (0 before any change)."""
    value = db.scalar(
        "SELECT generation FROM candidate_projection WHERE repository_key = ? AND worktree_key = ?",
        (owner.repository_key, owner.worktree_key),
    )
    return int(value or 0)


def bump_candidate_generation(db: StateDB, owner: OwnerKeys) -> int:
    """generation + 1 for the owner's candidate projection; returns the new generation."""
    with db.write():
        db.execute(
            "INSERT INTO candidate_projection (repository_key, worktree_key, generation,"
            " analyzer_version, recall_algorithm_version) VALUES (?, ?, 1, ?, ?)"
            " ON CONFLICT (repository_key, worktree_key) DO UPDATE SET generation = generation + 1",
            (owner.repository_key, owner.worktree_key, ANALYZER_VERSION, RECALL_ALGORITHM),
        )
        return candidate_generation(db, owner)
