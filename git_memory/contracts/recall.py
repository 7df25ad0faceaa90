"""AgentRecall@v1: extraction tasks plus the memory and skill context an agent reads first."""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import Field, StrictBool, model_validator
from pydantic.json_schema import SkipJsonSchema

from git_memory.contracts.adjudication import AdjudicationContract, AdjudicationTask
from git_memory.contracts.base import Hex64, Model, Slug, schema_of
from git_memory.contracts.consolidation import SceneSlug
from git_memory.contracts.extraction import (
    CandidateType,
    Confidence,
    ExtractionContract,
    ExtractionTask,
    Identifier,
    NonNegativeInt,
    PositiveInt,
    Priority,
    SceneName,
    is_absent,
    unique_by,
)

MEMORY_POLICY_VERSION: Final = "skill-memory-first@1"
MAX_MEMORY_ITEMS = 40
MAX_SKILL_ITEMS = 20
MAX_CONTEXT_BYTES = 128 * 1024
MAX_RECALL_TASKS = 8
MEMORY_PRIORITY = ["existing-skill", "scene", "doctrine", "approved-entry", "historical-turn"]
ContextSelection = Literal["all", "query-ranked"]


class SceneContextItem(Model):
    """A scene document in the memory context."""

    kind: Literal["scene"] = "scene"
    name: SceneSlug
    heat: PositiveInt
    summary: str
    content_digest: Hex64
    document: str


class DoctrineContextItem(Model):
    """The doctrine document in the memory context."""

    kind: Literal["doctrine"] = "doctrine"
    name: Literal["doctrine"] = "doctrine"
    content_digest: Hex64
    document: str


class EntryContextItem(Model):
    """An approved entry in the memory context."""

    kind: Literal["approved-entry"] = "approved-entry"
    entry_id: Identifier
    revision: PositiveInt
    content_digest: Hex64
    type: CandidateType
    scene: SceneName | None
    priority: Priority
    confidence: Confidence
    limitations: list[str]
    body: str


MemoryContextItem = Annotated[
    SceneContextItem | DoctrineContextItem | EntryContextItem, Field(discriminator="kind")
]


class MemoryContextBinding(Model):
    """What the memory context was built from; `bindingDigest = digest(binding)`."""

    policy_version: Literal["skill-memory-first@1"] = MEMORY_POLICY_VERSION
    entry_set_digest: Hex64
    scene_index_digest: Hex64
    doctrine_digest: Hex64 | None


def _check_counts(returned: int, total: int, items: int, size: int) -> None:
    if returned != items:
        raise ValueError(f"returned {returned} != number of items {items}")
    if returned > total:
        raise ValueError(f"returned {returned} exceeds total {total}")
    if size > MAX_CONTEXT_BYTES:
        raise ValueError(f"returnedBytes {size} exceeds {MAX_CONTEXT_BYTES}")


class MemoryContext(Model):
    """Scenes, doctrine and approved entries (≤ 40 items, ≤ 128 KiB); `truncated` means
    narrow the query and recall again."""

    format: Literal["git-memory-skill-context@v1"] = "git-memory-skill-context@v1"
    strategy: Literal["memory-first"] = "memory-first"
    priority: list[str] = Field(default_factory=lambda: list(MEMORY_PRIORITY))
    binding: MemoryContextBinding
    binding_digest: Hex64
    total: NonNegativeInt
    returned: NonNegativeInt
    returned_bytes: NonNegativeInt
    truncated: StrictBool
    selection: ContextSelection
    items: Annotated[list[MemoryContextItem], Field(max_length=MAX_MEMORY_ITEMS)]

    @model_validator(mode="after")
    def _consistent(self) -> MemoryContext:
        if self.priority != MEMORY_PRIORITY:
            raise ValueError(f"priority must be {MEMORY_PRIORITY}")
        if self.binding_digest != self.binding.digest():
            raise ValueError("bindingDigest must equal digest(binding)")
        _check_counts(self.returned, self.total, len(self.items), self.returned_bytes)
        return self


class SkillContextItem(Model):
    """An existing skill; `contentDigest` is the sha256 of its SKILL.md."""

    name: Slug
    description: str
    content_digest: Hex64
    document: str


class SkillContext(Model):
    """Existing skills (≤ 20 items, ≤ 128 KiB, never truncated individually)."""

    total: NonNegativeInt
    returned: NonNegativeInt
    returned_bytes: NonNegativeInt
    truncated: StrictBool
    selection: ContextSelection
    items: Annotated[list[SkillContextItem], Field(max_length=MAX_SKILL_ITEMS)]

    @model_validator(mode="after")
    def _consistent(self) -> SkillContext:
        unique_by(self.items, lambda item: item.name, "skill name")
        _check_counts(self.returned, self.total, len(self.items), self.returned_bytes)
        return self


class RecallGuidance(Model):
    """What the agent does next and with which document formats."""

    next_action: Literal["stage"] = "stage"
    request_format: Literal["git-memory-candidate-draft-batch@v1"] = (
        "git-memory-candidate-draft-batch@v1"
    )
    skill_request_format: Literal["git-memory-skill-candidate@v1"] = "git-memory-skill-candidate@v1"
    # The whole JSON Schema of a SkillCandidate (the tasks carry the draft batch's); left out
    # with the rules, like `contracts`, when an earlier recall of the same MCP session handed
    # them out.
    skill_document_schema: dict[str, Any] | SkipJsonSchema[None] = Field(
        default_factory=schema_of("git_memory.contracts.skill.SkillCandidate"),
        exclude_if=is_absent,
    )
    rules: list[str] | SkipJsonSchema[None] = Field(default=None, exclude_if=is_absent)


class RecallContracts(Model):
    """The prompt and the whole answer schema of each task kind, once per recall: every task
    of the recall (and every adjudication task a stage hands out next) names the one it
    follows in `contract.sharedIn` instead of repeating it."""

    extraction: ExtractionContract
    adjudication: AdjudicationContract


class RecallSelection(Model):
    """How the selection went: its digests and session/chunk counts."""

    request_digest: Hex64
    result_set_digest: Hex64
    matched_sessions: NonNegativeInt
    rejected_sessions: NonNegativeInt
    pending_chunks: NonNegativeInt


class AgentRecall(Model):
    """`git memory recall`: up to 8 pending extraction tasks and the context to read first."""

    format: Literal["git-memory-agent-recall@v1"] = "git-memory-agent-recall@v1"
    selection: RecallSelection
    tasks: Annotated[list[ExtractionTask], Field(max_length=MAX_RECALL_TASKS)]
    # Left out, like `contracts`, when an earlier recall of this MCP session handed out the
    # same ones (`handedEarlier`).
    memory_context: MemoryContext | SkipJsonSchema[None] = Field(default=None, exclude_if=is_absent)
    skill_context: SkillContext | SkipJsonSchema[None] = Field(default=None, exclude_if=is_absent)
    guidance: RecallGuidance
    note: str | None = None
    contracts: RecallContracts | None = Field(
        default=None,
        exclude_if=is_absent,
        description="The prompts and answer schemas the tasks point to (`contract.sharedIn`).",
    )
    handed_earlier: str | None = Field(
        default=None,
        exclude_if=is_absent,
        description="Set instead of `contracts`, `memoryContext`, `skillContext` and the "
        "guidance's rules and skill schema when an earlier recall of this MCP session handed "
        "the same ones out: their digest, the memory context's `bindingDigest`, and how to "
        "have them again (`withContracts`).",
    )
    adjudication_tasks: list[AdjudicationTask] | None = Field(
        default=None,
        exclude_if=is_absent,
        description="Drafts staged earlier that no adjudication has decided yet: for each "
        "batch the task that can move them now (reissued against the current pool when the "
        "last one went stale). Decide these before drafting more.",
    )
