"""Quarantined candidates inserted through the store API, and the requests that confirm them."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from git_memory.contracts.canonical import digest, sha256_hex
from git_memory.contracts.extraction import OwnerKeys
from git_memory.repo.binding import discover_worktree
from git_memory.store import candidates as store
from git_memory.store.db import open_state


@dataclass
class Statement:
    """A statement to seed: text, assessment fields and the evidence pointers it cites."""

    statement_id: str
    text: str
    strength: str = "direct"
    limitations: list[str] = field(default_factory=list)
    claim_support: str = "unverified"
    evidence: list[dict[str, Any]] = field(default_factory=list)


def owner_of(root: Path) -> OwnerKeys:
    """The store owner of the worktree at `root`."""
    binding = discover_worktree(root).binding()
    return OwnerKeys(repository_key=binding.repository_key, worktree_key=binding.worktree_key)


def seed_candidate(
    root: Path,
    candidate_id: str,
    content: str,
    statements: list[Statement] | None = None,
    **payload: Any,
) -> dict[str, Any]:
    """Insert a quarantined entry candidate; returns its PrepareRequest candidate item."""
    statements = statements or [Statement("s1", content)]
    worktree = discover_worktree(root)
    owner = owner_of(root)
    document = {
        "content": content,
        "type": "work_fact",
        "priority": 50,
        "confidence": "medium",
        "scene": None,
        **payload,
    }
    document["statements"] = [
        {"statementId": s.statement_id, "text": s.text, "evidenceIds": []} for s in statements
    ]
    with open_state(worktree.state_home) as db, db.write():
        candidate = store.insert_candidate(
            db,
            candidate_id=candidate_id,
            owner=owner,
            kind="entry",
            payload=document,
            content=content,
            status="quarantined",
        )
        confirmed = []
        for s in statements:
            citations = []
            refs = []
            for number, pointer in enumerate(s.evidence, start=1):
                pointer_digest = digest(pointer)
                evidence_id = f"ev-{number}-{pointer_digest[:12]}"
                citations.append({"evidenceId": evidence_id, "pointerDigest": pointer_digest})
                refs.append(
                    store.EvidenceRef(s.statement_id, evidence_id, pointer_digest, detail=pointer)
                )
            store.add_evidence_refs(db, candidate_id, refs)
            citations.sort(key=lambda c: (c["evidenceId"], c["pointerDigest"]))
            text_digest = sha256_hex(s.text.encode())
            store.set_assessment(
                db,
                candidate_id,
                store.Assessment(
                    statement_id=s.statement_id,
                    citations_digest=digest(citations),
                    provenance_strength=s.strength,
                    limitations=s.limitations,
                    claim_support=s.claim_support,
                    assessed_by="deterministic",
                    statement_text_digest=text_digest,
                    revision=candidate.revision,
                ),
            )
            confirmed.append(
                {
                    "statementId": s.statement_id,
                    "statementTextDigest": text_digest,
                    "citationsDigest": digest(citations),
                }
            )
    return {
        "candidateId": candidate_id,
        "expectedRevision": candidate.revision,
        "statements": confirmed,
    }


def prepare_request(*items: dict[str, Any]) -> dict[str, Any]:
    """A PrepareRequest@v1 document for these candidate items."""
    return {"format": "git-memory-prepare-request@v1", "kind": "entry", "candidates": list(items)}


def candidate_state(root: Path, candidate_id: str) -> tuple[str, int]:
    """(status, revision) of a candidate."""
    worktree = discover_worktree(root)
    with open_state(worktree.state_home) as db:
        found = store.get_candidate(db, candidate_id)
    assert found is not None
    return found.status, found.revision


def authorizations(root: Path) -> list[tuple[str, dict[str, Any]]]:
    """The authorization log of the worktree at `root`: (via, detail) in order."""
    with open_state(discover_worktree(root).state_home) as db:
        rows = db.rows("SELECT via, detail FROM authorization_log ORDER BY id")
    return [(row[0], json.loads(row[1])) for row in rows]
