"""Review@v1: the quarantine queue, each statement with its digests and cited evidence."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, field_validator

from git_memory.contracts.assessment import ClaimSupport, ProvenanceStrength
from git_memory.contracts.base import Hex64, Model, added_optional
from git_memory.contracts.extraction import (
    CandidateType,
    Identifier,
    NonEmpty,
    PositiveInt,
    unique_by,
)

MAX_EXCERPT_CHARS = 480
CandidateKind = Literal["entry", "skill", "consolidation"]


class ReviewEvidence(Model):
    """A cited item: a catalog evidence id (or, for consolidation, an entry id) with its
    display text and an excerpt of at most 480 characters."""

    evidence_id: Identifier
    display: NonEmpty
    excerpt: Annotated[str, StringConstraints(max_length=MAX_EXCERPT_CHARS)]


class ReviewStatement(Model):
    """One statement; the two digests are what `prepare` must echo to confirm it."""

    statement_id: Identifier
    text: NonEmpty
    claim_support: ClaimSupport
    provenance_strength: ProvenanceStrength
    limitations: list[str]
    statement_text_digest: Hex64
    citations_digest: Hex64
    evidence: list[ReviewEvidence]


class ReviewItem(Model):
    """A quarantined candidate at its current revision."""

    candidate_id: Identifier
    revision: PositiveInt
    kind: CandidateKind
    type: CandidateType | None
    content: str
    statements: list[ReviewStatement]
    scope: str | None = added_optional(
        1024,
        "Where the entry would apply: `path:<dir>` when the manifests it cites and the "
        "directories its commands run in lie below one directory; absent: everywhere. The "
        "prepare request's `scope` widens or narrows it.",
    )

    @field_validator("statements")
    @classmethod
    def _unique_statements(cls, value: list[ReviewStatement]) -> list[ReviewStatement]:
        return unique_by(value, lambda item: item.statement_id, "statementId")


class Review(Model):
    """`git memory review`: quarantined candidates of one kind (or all)."""

    format: Literal["git-memory-review@v1"] = "git-memory-review@v1"
    kind: CandidateKind | None = None
    items: Annotated[list[ReviewItem], Field(max_length=200)]

    @field_validator("items")
    @classmethod
    def _unique_items(cls, value: list[ReviewItem]) -> list[ReviewItem]:
        return unique_by(value, lambda item: item.candidate_id, "candidateId")
