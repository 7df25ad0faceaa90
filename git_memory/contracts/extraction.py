"""Extraction contracts: the request, the task handed to a model, and the draft batch it returns.

Also the small field types the other contract modules share (identifiers, owner keys, leases).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    Field,
    SerializerFunctionWrapHandler,
    StrictInt,
    StringConstraints,
    WithJsonSchema,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from git_memory.contracts.base import (
    DecimalString,
    EvidenceId,
    Hex64,
    Model,
    Timestamp,
    parse_timestamp,
    schema_of,
)
from git_memory.contracts.canonical import MAX_SAFE_INTEGER, digest

# Task, candidate, statement and plan ids (reference "identifier").
Identifier = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")]
NonEmpty = Annotated[str, StringConstraints(min_length=1)]
# Scene names are free-form text (non-Latin names must work), only bounded.
SceneName = Annotated[str, StringConstraints(min_length=1, max_length=200)]
# Strict integers: JSON `true`, `1.0` or `"1"` are not counts, revisions or priorities.
NonNegativeInt = Annotated[StrictInt, Field(ge=0, le=MAX_SAFE_INTEGER)]
PositiveInt = Annotated[StrictInt, Field(ge=1, le=MAX_SAFE_INTEGER)]
Priority = Annotated[StrictInt, Field(ge=0, le=100)]
# The canonical timestamp, with its pattern published in the JSON Schema.
UtcTimestamp = Annotated[
    Timestamp,
    WithJsonSchema({"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"}),
]
CandidateType = Literal["work_fact", "work_task", "work_method", "work_artifact"]
Confidence = Literal["high", "medium", "low"]
CandidateStatus = Literal["draft", "quarantined", "promoted", "discarded"]
TaskKind = Literal["extraction", "adjudication", "consolidation"]

MAX_WINDOW = timedelta(days=366)
MAX_QUERY_CHARS = 8192
MAX_FILTER_KEYS = 64
MAX_CANDIDATES_PER_BATCH = 8
MAX_QUOTES = 8
MAX_QUOTE_CHARS = 480
PROMPT_VERSION = "memory-prompts@2"
CHUNKER_VERSION = "memory-chunker@3"
DRAFT_BATCH_FORMAT: Final = "git-memory-candidate-draft-batch@v1"


def unique_by(items: list[Any], key: Any, what: str) -> list[Any]:
    """Validator body: no two items share `key(item)`."""
    seen: set[Any] = set()
    for item in items:
        value = key(item)
        if value in seen:
            raise ValueError(f"duplicate {what}: {value!r}")
        seen.add(value)
    return items


def _unique_sorted(values: list[Any]) -> list[Any]:
    unique_by(values, lambda value: value, "item")
    return sorted(values)


class OmitsNone(Model):
    """A model whose optional (None) fields are left out of its JSON document."""

    @model_serializer(mode="wrap")
    def _drop_none(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {key: value for key, value in data.items() if value is not None}


def is_absent(value: object) -> bool:
    """`Field(exclude_if=is_absent)`: an optional field left out of the document when unset.

    Unlike `OmitsNone`, the model keeps its own JSON Schema in serialization mode (the MCP
    tools' output schemas)."""
    return value is None


class OwnerKeys(Model):
    """The repository and worktree keys that scope private state."""

    repository_key: Hex64
    worktree_key: Hex64


class Lease(Model):
    """Who holds a claimed task and until when (milliseconds since the epoch)."""

    holder: NonEmpty
    expires_at: NonNegativeInt


class TimeWindow(Model):
    """Half-open `[after, before)` in canonical UTC timestamps."""

    after: UtcTimestamp
    before: UtcTimestamp

    @model_validator(mode="after")
    def _ordered_and_bounded(self) -> TimeWindow:
        start, end = parse_timestamp(self.after), parse_timestamp(self.before)
        if start >= end:
            raise ValueError("window.after must be earlier than window.before")
        if end - start > MAX_WINDOW:
            raise ValueError("window must not exceed 366 days")
        return self


Provider = Literal[
    "claude", "codex", "gemini-cli", "qwen-code", "opencode", "copilot-cli", "cursor", "antigravity"
]
ResultEvidence = Literal["provider-completed", "abandoned", "unknown"]
TerminalState = Literal["pending", "completed", "failed", "cancelled", "unknown"]
KeyList = Annotated[list[Hex64], Field(max_length=MAX_FILTER_KEYS), AfterValidator(_unique_sorted)]


class ExtractionFilters(OmitsNone):
    """Optional narrowing of the selection; every list is unique and kept sorted."""

    providers: Annotated[list[Provider], AfterValidator(_unique_sorted)] | SkipJsonSchema[None] = (
        None
    )
    session_keys: KeyList | SkipJsonSchema[None] = None
    tool_capability_keys: KeyList | SkipJsonSchema[None] = None
    skill_capability_keys: KeyList | SkipJsonSchema[None] = None
    result_evidence: (
        Annotated[list[ResultEvidence], AfterValidator(_unique_sorted)] | SkipJsonSchema[None]
    ) = None
    capability_terminal_states: (
        Annotated[list[TerminalState], AfterValidator(_unique_sorted)] | SkipJsonSchema[None]
    ) = None

    @model_validator(mode="after")
    def _terminal_states_need_capability(self) -> ExtractionFilters:
        if self.capability_terminal_states and not (
            self.tool_capability_keys or self.skill_capability_keys
        ):
            raise ValueError(
                "capabilityTerminalStates requires toolCapabilityKeys or skillCapabilityKeys"
            )
        return self


class MemoryExtractionRequest(OmitsNone):
    """What to mine: an explicit UTC window, an optional query and filters (no scope keys)."""

    format: Literal["git-memory-extraction-request@v1"] = "git-memory-extraction-request@v1"
    window: TimeWindow
    query: Annotated[str, StringConstraints(max_length=MAX_QUERY_CHARS)] | SkipJsonSchema[None] = (
        None
    )
    filters: ExtractionFilters | SkipJsonSchema[None] = None


class Selection(Model):
    """Digests of the selection a task came from (request, result set, source binding)."""

    request_digest: Hex64
    result_set_digest: Hex64
    source_binding_digest: Hex64


class Provenance(Model):
    """When the source snapshot was evaluated; provenance only, never part of CAS."""

    snapshot_seq: DecimalString
    evaluated_at: UtcTimestamp


class ExtractionBinding(Model):
    """Echoed verbatim by CandidateDraftBatch and SkillCandidate."""

    database_uuid: NonEmpty
    owner: OwnerKeys
    source_input_digest: Hex64
    selection: Selection
    turn_revisions: list[Hex64]
    payload_digests: list[Hex64]
    delivery_edge_revisions: list[Hex64]
    prompt_version: NonEmpty
    schema_version: NonEmpty
    chunker_version: NonEmpty
    provenance: Provenance


class SessionWindow(Model):
    """First and last turn time of the session slice."""

    start: UtcTimestamp
    end: UtcTimestamp


class TaskSession(Model):
    """The session a chunk comes from, by public project id and repository key only."""

    project: NonEmpty | None
    repository_key: Hex64
    time_window: SessionWindow | None


class EvidenceItem(Model):
    """One opaque catalog entry; strength and relation stay host-side."""

    evidence_id: EvidenceId
    kind: Literal["commit", "turn", "path"]
    # The host keeps it (`CatalogItem`); a task leaves it out: an agent cites the id only.
    pointer_digest: Hex64 | SkipJsonSchema[None] = Field(default=None, exclude_if=is_absent)
    display: NonEmpty


class TurnRange(Model):
    """Inclusive range of turn indexes in the chunk."""

    start: NonNegativeInt
    end: NonNegativeInt

    @model_validator(mode="after")
    def _ordered(self) -> TurnRange:
        if self.start > self.end:
            raise ValueError("turnRange.start must not exceed turnRange.end")
        return self


class CoverageItem(Model):
    """What a chunk holds of one turn or tool payload, and whether it was cut."""

    source_kind: Literal["turn", "tool-payload"]
    ref: NonEmpty
    completeness: Literal["full", "truncated"]
    bytes: NonNegativeInt


class TurnEvidence(Model):
    """Maps a chunk turn to its catalog evidence id."""

    turn_index: NonNegativeInt
    evidence_id: EvidenceId


class Chunk(Model):
    """Whole consecutive turns, their coverage and the serialized transcript."""

    turn_range: TurnRange
    coverage: list[CoverageItem]
    turn_evidence: list[TurnEvidence] = Field(default_factory=list)
    transcript: str

    @field_validator("turn_evidence")
    @classmethod
    def _one_id_per_turn(cls, value: list[TurnEvidence]) -> list[TurnEvidence]:
        return unique_by(value, lambda item: item.turn_index, "turnIndex")


class TaskContext(Model):
    """Extra context for the model; the scene summary is null today."""

    scene_index_summary: NonEmpty | None = None


SHARED_DESCRIPTION = (
    "Where the prompt text and documentSchema are when the task leaves them out: the field of "
    "the recall that handed the task out, once for all of its tasks (of the session's first "
    "recall when that one says handedEarlier)."
)


class ExtractionPrompts(Model):
    """The versioned extraction prompt, embedded in the task (or shared by the recall)."""

    prompt_version: NonEmpty
    extraction: NonEmpty | SkipJsonSchema[None] = Field(default=None, exclude_if=is_absent)


class ExtractionContract(Model):
    """The output contract of an extraction task."""

    draft_schema: Literal["git-memory-candidate-draft-batch@v1"] = DRAFT_BATCH_FORMAT
    prompts: ExtractionPrompts
    # The whole JSON Schema of the document that answers the task: an agent (or runner)
    # writes a valid document from it without any other reference.
    document_schema: dict[str, Any] | SkipJsonSchema[None] = Field(
        default_factory=schema_of("git_memory.contracts.extraction.CandidateDraftBatch"),
        exclude_if=is_absent,
    )
    shared_in: Literal["contracts.extraction"] | SkipJsonSchema[None] = Field(
        default=None, exclude_if=is_absent, description=SHARED_DESCRIPTION
    )

    def pointing(self) -> ExtractionContract:
        """This contract without the prompt text and schema the recall carries once."""
        prompts = ExtractionPrompts(prompt_version=self.prompts.prompt_version)
        return ExtractionContract(
            prompts=prompts, document_schema=None, shared_in="contracts.extraction"
        )


BUILTIN_DRAFTS_DESCRIPTION = (
    "Drafts the builtin extractor already wrote from this chunk with observed evidence (a "
    "command and the exit it showed, a failure and the fix that worked), citing this task's "
    "evidence ids: put them in your batch as they are (drop one the person rejects) and do "
    "not derive them again or restate them in other words. Absent when there are none."
)


class ExtractionTask(Model):
    """One chunk of one session, ready for a model; `taskId = "extract-" + sourceInputDigest`."""

    format: Literal["git-memory-extraction-task@v1"] = "git-memory-extraction-task@v1"
    task_id: Identifier
    lease: Lease
    binding: ExtractionBinding
    session: TaskSession
    evidence_catalog: list[EvidenceItem]
    chunk: Chunk
    context: TaskContext
    contract: ExtractionContract
    # Not an input of the task (not in `sourceInputDigest`): what the builtin extractor
    # already drafted from this chunk with observed evidence, as the memory held then.
    builtin_drafts: list[DraftCandidate] | SkipJsonSchema[None] = Field(
        default=None,
        exclude_if=is_absent,
        description=BUILTIN_DRAFTS_DESCRIPTION,
    )

    @field_validator("evidence_catalog")
    @classmethod
    def _unique_evidence(cls, value: list[EvidenceItem]) -> list[EvidenceItem]:
        return unique_by(value, lambda item: item.evidence_id, "evidenceId")

    def sharing_contract(self) -> ExtractionTask:
        """The task as a recall hands it out: its contract points to the recall's."""
        return self.model_copy(update={"contract": self.contract.pointing()})

    def compute_source_input_digest(self) -> str:
        """Digest of the task's inputs; excludes taskId, lease and provenance."""
        binding = self.binding
        return digest(
            {
                "chunk": self.chunk.to_json(),
                "evidenceCatalog": [item.to_json() for item in self.evidence_catalog],
                "session": self.session.to_json(),
                "context": self.context.to_json(),
                "selection": binding.selection.to_json(),
                "turnRevisions": binding.turn_revisions,
                "payloadDigests": binding.payload_digests,
                "deliveryEdgeRevisions": binding.delivery_edge_revisions,
                "promptVersion": binding.prompt_version,
                "schemaVersion": binding.schema_version,
                "chunkerVersion": binding.chunker_version,
            }
        )


class DraftQuote(Model):
    """Words of a cited turn that back a statement, copied exactly from the transcript: the
    person's sentence, the command as run, its result line. `part` says where in the turn
    they are (the user's message, the assistant's text, a tool call or its output); the host
    looks for them there and records their origin (typed by a person, a pasted document, a
    program's prompt, the agent's own words, a tool's output); words it cannot find there
    are dropped."""

    evidence_id: EvidenceId
    part: Literal["user", "assistant", "tool"]
    text: Annotated[str, StringConstraints(min_length=1, max_length=MAX_QUOTE_CHARS)]


class DraftStatement(Model):
    """One claim of a draft, citing catalog evidence ids, optionally with the words that
    back it (`quotes`)."""

    statement_id: Identifier
    text: NonEmpty
    evidence_ids: list[EvidenceId]
    quotes: Annotated[list[DraftQuote], Field(max_length=MAX_QUOTES)] | SkipJsonSchema[None] = (
        Field(default=None, exclude_if=is_absent)
    )


class DraftCandidate(Model):
    """A proposed memory. Duplicate statement ids or unknown evidence ids are not refused
    here: the host rejects only the offending candidate, not the whole batch."""

    content: NonEmpty
    type: CandidateType
    priority: Priority
    confidence: Confidence
    scene: SceneName | None
    statements: list[DraftStatement]


class CandidateDraftBatch(Model):
    """A model's answer to an ExtractionTask: echoed taskId and binding, at most 8 drafts."""

    format: Literal["git-memory-candidate-draft-batch@v1"] = DRAFT_BATCH_FORMAT
    task_id: Identifier
    binding: ExtractionBinding
    candidates: Annotated[list[DraftCandidate], Field(max_length=MAX_CANDIDATES_PER_BATCH)]

    def draft_batch_digest(self) -> str:
        """`digest({candidates})`, bound into the adjudication task."""
        return digest({"candidates": [item.to_json() for item in self.candidates]})
