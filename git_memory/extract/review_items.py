"""Review items: a candidate's statements beside their digests and cited evidence."""

from __future__ import annotations

from git_memory.assemble.scope import entry_scope
from git_memory.contracts.review import (
    MAX_APPROVED_CHARS,
    ORIGINS,
    ReviewDirective,
    ReviewEvidence,
    ReviewItem,
    ReviewQuote,
    ReviewReplaced,
    ReviewReplacedCandidate,
    ReviewStatement,
)
from git_memory.lint.directives import lint_directives
from git_memory.store.approved import list_approved_entries
from git_memory.store.candidates import Candidate, assessments, evidence_refs
from git_memory.store.db import StateDB

KIND_OF = {"entry": "entry", "skill": "skill", "consolidation-patch": "consolidation"}


def review_model(db: StateDB, candidate: Candidate) -> ReviewItem:
    """The ReviewItem of one candidate at its current revision."""
    payload = candidate.payload
    by_statement: dict[str, list[ReviewEvidence]] = {}
    for ref in evidence_refs(db, candidate.candidate_id):
        detail = ref.detail or {}
        by_statement.setdefault(ref.statement_id, []).append(
            ReviewEvidence(
                evidence_id=ref.evidence_id,
                display=str(detail.get("display") or ref.evidence_id),
                excerpt=str(detail.get("excerpt", ""))[:480],
                quotes=[ReviewQuote.model_validate(q) for q in detail["quotes"]]
                if detail.get("quotes")
                else None,
            )
        )
    assessed = {a.statement_id: a for a in assessments(db, candidate.candidate_id)}
    statements = []
    for statement in payload.get("statements", []):
        assessment = assessed[statement["statementId"]]
        evidence = sorted(
            by_statement.get(statement["statementId"], []), key=lambda e: e.evidence_id
        )
        origins = {q.origin for e in evidence for q in e.quotes or []}
        statements.append(
            ReviewStatement(
                statement_id=statement["statementId"],
                text=statement["text"],
                claim_support=assessment.claim_support,
                provenance_strength=assessment.provenance_strength,
                limitations=list(assessment.limitations),
                statement_text_digest=assessment.statement_text_digest,
                citations_digest=assessment.citations_digest,
                evidence=evidence,
                origins=[o for o in ORIGINS if o in origins] or None,
            )
        )
    kind = KIND_OF.get(candidate.kind, "entry")
    content = str(payload.get("content", ""))
    return ReviewItem(
        candidate_id=candidate.candidate_id,
        revision=candidate.revision,
        kind=kind,
        type=payload.get("type"),
        content=content,
        statements=statements,
        scope=_scope(db, candidate.candidate_id, content) if kind == "entry" else None,
        replaces=_replaced(db, candidate) or None,
        replaces_candidates=[
            ReviewReplacedCandidate(
                candidate_id=one["candidateId"], content=one["content"][:MAX_APPROVED_CHARS]
            )
            for one in payload.get("replacedCandidates") or []
        ]
        or None,
        directives=review_directives(content) or None,
    )


def review_directives(content: str) -> list[ReviewDirective]:
    """The directives in a candidate's content, as review shows them (`lint.directives`)."""
    return [
        ReviewDirective(code=f.code, message=f.message, line=f.line, excerpt=f.excerpt)
        for f in lint_directives(content)
    ]


def _replaced(db: StateDB, candidate: Candidate) -> list[ReviewReplaced]:
    """The approved entries an update would rewrite, each with its text as approved now."""
    targets = candidate.payload.get("targetEntryIds") or []
    if candidate.payload.get("action") != "update" or not targets:
        return []
    bodies = {
        row["entry_id"]: str(row["body_text"]) for row in list_approved_entries(db, candidate.owner)
    }
    return [
        ReviewReplaced(entry_id=entry, approved_text=bodies[entry].strip()[:MAX_APPROVED_CHARS])
        for entry in targets
        if entry in bodies
    ]


def _scope(db: StateDB, candidate_id: str, content: str) -> str | None:
    """`path:<dir>` when the entry would apply below one directory (assemble/scope.py)."""
    paths = [
        str(ref.detail["path"])
        for ref in evidence_refs(db, candidate_id)
        if ref.detail and ref.detail.get("kind") == "path" and ref.detail.get("path")
    ]
    directory = entry_scope("repo", paths, content)
    return None if directory is None else f"path:{directory}"
