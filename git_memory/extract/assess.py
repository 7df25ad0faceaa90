"""Deterministic evidence assessments of drafted statements.

A model never states how strong its evidence is: the host derives it from the cited catalog
items. A statement written by a model is `unverified` until a human confirms it; only the
fixed typed-fact renderers may produce `typed-fact` support.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from git_memory.contracts.assessment import Citation, citations_digest
from git_memory.contracts.canonical import sha256_hex
from git_memory.contracts.host_records import CatalogItem
from git_memory.extract.source import STRENGTH_ORDER
from git_memory.store.candidates import Assessment


class CitingStatement(Protocol):
    """A drafted statement (of an entry or a skill): its id, text and cited evidence ids."""

    @property
    def statement_id(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def evidence_ids(self) -> list[str]: ...


def cited(statement: CitingStatement, catalog: Mapping[str, CatalogItem]) -> list[CatalogItem]:
    """The catalog items a statement cites, each once, by evidence id."""
    return [catalog[e] for e in sorted(set(statement.evidence_ids))]


class CandidateRejected(Exception):
    """A drafted candidate that cannot be kept; `reason` is a stable slug."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


def assess_statements(
    statements: Sequence[CitingStatement],
    catalog: Mapping[str, CatalogItem],
    *,
    support_of: Callable[[str], str] | None = None,
) -> list[Assessment]:
    """Assess every statement of one candidate (rows at revision 1), or reject the whole
    candidate."""
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
    statement: CitingStatement, catalog: Mapping[str, CatalogItem], claim_support: str
) -> Assessment:
    items = cited(statement, catalog)
    strength = (
        min((item.strength for item in items), key=STRENGTH_ORDER.__getitem__)
        if items
        else "unknown"
    )
    return Assessment(
        statement_id=statement.statement_id,
        citations_digest=citations_digest(
            [Citation(evidence_id=i.evidence_id, pointer_digest=i.pointer_digest) for i in items]
        ),
        provenance_strength=strength,
        limitations=sorted({lim for item in items for lim in item.limitations}),
        claim_support=claim_support,
        assessed_by="deterministic",
        statement_text_digest=sha256_hex(statement.text.encode()),
        revision=1,
    )
