"""Deterministic evidence assessments of drafted statements.

A model never states how strong its evidence is: the host derives it from the cited catalog
items. A statement written by a model is `unverified` until a human confirms it; only the
fixed typed-fact renderers may produce `typed-fact` support.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from git_memory.contracts.canonical import digest, sha256_hex
from git_memory.extract.evidence import CatalogItem
from git_memory.extract.source import STRENGTH_ORDER


@dataclass(frozen=True)
class DraftStatement:
    """A statement as drafted: its id, text and cited evidence ids."""

    statement_id: str
    text: str
    evidence_ids: tuple[str, ...]


@dataclass(frozen=True)
class Assessment:
    """The host's assessment of one statement (EvidenceAssessment@v1 fields)."""

    statement_id: str
    text: str
    citations: tuple[tuple[str, str], ...]
    provenance_strength: str
    limitations: tuple[str, ...]
    claim_support: str
    assessed_by: str

    @property
    def statement_text_digest(self) -> str:
        """sha256 of the statement text."""
        return sha256_hex(self.text.encode())

    @property
    def citations_digest(self) -> str:
        """Canonical digest of the sorted citations."""
        return digest(self.citation_documents())

    def citation_documents(self) -> list[dict[str, str]]:
        """Citations as `{evidenceId, pointerDigest}` documents."""
        return [{"evidenceId": e, "pointerDigest": p} for e, p in self.citations]


class CandidateRejected(Exception):
    """A drafted candidate that cannot be kept; `reason` is a stable slug."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


def assess_statements(
    statements: Sequence[DraftStatement],
    catalog: Mapping[str, CatalogItem],
    *,
    support_of: Callable[[str], str] | None = None,
) -> list[Assessment]:
    """Assess every statement of one candidate, or reject the whole candidate."""
    seen: set[str] = set()
    for statement in statements:
        if statement.statement_id in seen:
            raise CandidateRejected("duplicate-statement-id", statement.statement_id)
        seen.add(statement.statement_id)
        unknown = [e for e in statement.evidence_ids if e not in catalog]
        if unknown:
            raise CandidateRejected("unknown-evidence-id", ", ".join(sorted(unknown)))
    return [
        _assess(
            statement, catalog, support_of(statement.statement_id) if support_of else "unverified"
        )
        for statement in statements
    ]


def _assess(
    statement: DraftStatement, catalog: Mapping[str, CatalogItem], claim_support: str
) -> Assessment:
    cited = [catalog[e] for e in sorted(set(statement.evidence_ids))]
    strength = (
        min((item.strength for item in cited), key=STRENGTH_ORDER.__getitem__)
        if cited
        else "unknown"
    )
    limitations = sorted({lim for item in cited for lim in item.limitations})
    return Assessment(
        statement_id=statement.statement_id,
        text=statement.text,
        citations=tuple((item.evidence_id, item.pointer_digest) for item in cited),
        provenance_strength=strength,
        limitations=tuple(limitations),
        claim_support=claim_support,
        assessed_by="deterministic",
    )
