"""Review@v1: the quarantine queue, each statement with its digests and cited evidence."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, field_validator
from pydantic.json_schema import SkipJsonSchema

from git_memory.contracts.assessment import ClaimSupport, ProvenanceStrength
from git_memory.contracts.base import Hex64, Model, added_optional
from git_memory.contracts.extraction import (
    CandidateType,
    Identifier,
    NonEmpty,
    PositiveInt,
    UtcTimestamp,
    is_absent,
    unique_by,
)

MAX_EXCERPT_CHARS = 480
MAX_APPROVED_CHARS = 4000
ORIGINS = ("person", "document", "program", "agent", "tool")
# Where quoted words came from: typed by a person, a pasted document, a prompt a program
# wrote, the agent's own words, a tool's output (git_memory/sessions/origin.py decides).
Origin = Literal["person", "document", "program", "agent", "tool"]
CandidateKind = Literal["entry", "skill", "consolidation"]


class ReviewQuote(Model):
    """Words of the cited turn that back the statement, where they came from, and when the
    turn started (`at`, when known)."""

    origin: Origin
    text: Annotated[str, StringConstraints(min_length=1, max_length=MAX_EXCERPT_CHARS)]
    at: UtcTimestamp | SkipJsonSchema[None] = Field(default=None, exclude_if=is_absent)


class ReviewEvidence(Model):
    """A cited item: a catalog evidence id (or, for consolidation, an entry id) with its
    display text, an excerpt of at most 480 characters and, when the extractor quoted them,
    the words of the item that back the statement with their origin."""

    evidence_id: Identifier
    display: NonEmpty
    excerpt: Annotated[str, StringConstraints(max_length=MAX_EXCERPT_CHARS)]
    quotes: list[ReviewQuote] | SkipJsonSchema[None] = Field(default=None, exclude_if=is_absent)


class ReviewStatement(Model):
    """One statement; the two digests are what `prepare` must echo to confirm it.

    `origins` lists where the quoted words backing it came from (absent when nothing was
    quoted); a statement that no person's words back is decided on its own, never in bulk.
    """

    statement_id: Identifier
    text: NonEmpty
    claim_support: ClaimSupport
    provenance_strength: ProvenanceStrength
    limitations: list[str]
    statement_text_digest: Hex64
    citations_digest: Hex64
    evidence: list[ReviewEvidence]
    origins: Annotated[list[Origin], Field(max_length=len(ORIGINS))] | SkipJsonSchema[None] = Field(
        default=None, exclude_if=is_absent
    )


class ReviewReplaced(Model):
    """An approved entry the candidate would rewrite, with its text as approved now, shown
    beside the candidate's `content` so the two can be read side by side."""

    entry_id: Identifier
    approved_text: Annotated[str, StringConstraints(max_length=MAX_APPROVED_CHARS)]


class ReviewReplacedCandidate(Model):
    """A candidate in review that an update or merge folded into this one (it left review),
    with the text it had, shown beside the new `content`."""

    candidate_id: Identifier
    content: Annotated[str, StringConstraints(max_length=MAX_APPROVED_CHARS)]


class ReviewDirective(Model):
    """An instruction to agents in `content` (`GM_DIRECTIVE_<CLASS>`): a person confirms it
    by listing its code in the prepare request's `confirmedDirectives`."""

    code: str
    message: str
    line: PositiveInt
    excerpt: str


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
    replaces: list[ReviewReplaced] | SkipJsonSchema[None] = Field(
        default=None,
        exclude_if=is_absent,
        description="An update: each approved entry it would rewrite, with the text approved "
        "now (beside `content`, the new text); absent for a new entry.",
    )
    replaces_candidates: list[ReviewReplacedCandidate] | SkipJsonSchema[None] = Field(
        default=None,
        exclude_if=is_absent,
        description="Candidates this one replaced in review (an update or merge of them), each "
        "with its text beside `content`; absent when it replaced none.",
    )
    directives: list[ReviewDirective] | SkipJsonSchema[None] = Field(
        default=None,
        exclude_if=is_absent,
        description="Instructions to agents in `content`, each confirmed explicitly or refused.",
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
    # True after review asked at a terminal: `items` are what still waits once the answers
    # were given (skipped, or left when the person quit). Absent otherwise, so a listing's
    # document is what it always was.
    after_answers: bool | SkipJsonSchema[None] = Field(default=None, exclude_if=is_absent)

    @field_validator("items")
    @classmethod
    def _unique_items(cls, value: list[ReviewItem]) -> list[ReviewItem]:
        return unique_by(value, lambda item: item.candidate_id, "candidateId")
