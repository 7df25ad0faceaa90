"""EvidenceAssessment@v1: the host's deterministic judgement of one statement's evidence."""

from __future__ import annotations

from typing import Literal

from pydantic import field_validator

from git_memory.contracts.base import EvidenceId, Hex64, Model
from git_memory.contracts.canonical import digest, sha256_hex
from git_memory.contracts.extraction import Identifier, NonEmpty, NonNegativeInt, unique_by

ProvenanceStrength = Literal["direct", "observed", "candidate", "contextual", "unknown"]
ClaimSupport = Literal["unverified", "typed-fact", "human-confirmed"]
AssessedBy = Literal["deterministic", "human"]


def statement_text_digest(text: str) -> str:
    """`sha256` of the statement's raw UTF-8 text (not canonical JSON)."""
    return sha256_hex(text.encode("utf-8"))


class Citation(Model):
    """One cited catalog item, bound by its pointer digest."""

    evidence_id: EvidenceId
    pointer_digest: Hex64


class EvidenceAssessment(Model):
    """Citations are unique and kept sorted so `citationsDigest` is order-independent."""

    format: Literal["git-memory-evidence-assessment@v1"] = "git-memory-evidence-assessment@v1"
    candidate_id: Identifier
    statement_id: Identifier
    citations: list[Citation]
    provenance_strength: ProvenanceStrength
    limitations: list[NonEmpty]
    claim_support: ClaimSupport
    assessed_by: AssessedBy
    statement_text_digest: Hex64
    revision: NonNegativeInt

    @field_validator("citations")
    @classmethod
    def _sorted_unique_citations(cls, value: list[Citation]) -> list[Citation]:
        unique_by(value, lambda item: (item.evidence_id, item.pointer_digest), "citation")
        return sorted(value, key=lambda item: (item.evidence_id, item.pointer_digest))

    @field_validator("limitations")
    @classmethod
    def _unique_limitations(cls, value: list[str]) -> list[str]:
        return unique_by(value, lambda item: item, "limitation")

    def citations_digest(self) -> str:
        """`digest(citations)`: half of the confirmation binding."""
        return citations_digest(self.citations)


def citations_digest(citations: list[Citation]) -> str:
    """`digest` of the sorted citation list, as the confirmation binding records it."""
    ordered = sorted(citations, key=lambda item: (item.evidence_id, item.pointer_digest))
    return digest([item.to_json() for item in ordered])
