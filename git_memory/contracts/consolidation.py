"""Consolidation contracts: the task over approved memory and the scene/doctrine patch.

The patch rules that need the task (known entries, existing scenes, capacity, heat) belong
to the consolidation flow; this module checks the document's own shape.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import Field, StringConstraints, field_validator

from git_memory.contracts.base import Hex64, Model, schema_of
from git_memory.contracts.canonical import digest
from git_memory.contracts.extraction import (
    CandidateType,
    Confidence,
    Identifier,
    Lease,
    NonEmpty,
    NonNegativeInt,
    OwnerKeys,
    PositiveInt,
    Priority,
    SceneName,
    unique_by,
)

TASK_FORMAT: Final = "git-memory-consolidation-task@v1"
PATCH_FORMAT: Final = "git-memory-consolidation-patch@v1"
CONSOLIDATION_PROMPT_VERSION = "memory-consolidation@3"
CONSOLIDATION_POLICY_VERSION = "consolidation-policy@1"
# Scene and operation slugs: no leading/trailing dash, at most 64 characters.
SceneSlug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$")]


class ApprovedProjectionState(Model):
    """The approved projection a consolidation was computed from (coverage must be complete)."""

    generation: NonNegativeInt
    analyzer_version: NonEmpty
    coverage: Literal["complete"] = "complete"
    source_tree_digest: Hex64


class EntryRevision(Model):
    """An approved entry as the task saw it."""

    entry_id: Identifier
    revision: PositiveInt
    content_digest: Hex64


class SceneRevision(Model):
    """A scene as the task saw it."""

    name: SceneSlug
    content_digest: Hex64
    heat: PositiveInt


class Replay(Model):
    """Incremental (since the last successful run) or full replay."""

    mode: Literal["incremental", "full"]
    after_successful_run_id: Identifier | None


class ConsolidationBinding(Model):
    """Echoed verbatim by ConsolidationPatch; `taskId = "consolidate-" + digest(binding)`."""

    database_uuid: NonEmpty
    memory_state_uuid: NonEmpty
    owner: OwnerKeys
    approved_projection: ApprovedProjectionState
    entry_set_digest: Hex64
    entry_revisions: list[EntryRevision]
    scene_index_digest: Hex64
    scene_revisions: list[SceneRevision]
    doctrine_digest: Hex64 | None
    replay: Replay
    prompt_version: NonEmpty
    schema_version: Literal["git-memory-consolidation-task@v1"] = TASK_FORMAT
    policy_version: NonEmpty

    def expected_task_id(self) -> str:
        """`consolidate-<digest(binding)>`."""
        return "consolidate-" + digest(self.to_json())


class ConsolidationEntry(Model):
    """An approved entry handed to the model."""

    entry_id: Identifier
    revision: PositiveInt
    content_digest: Hex64
    type: CandidateType
    scene: SceneName | None
    priority: Priority
    confidence: Confidence
    body: NonEmpty


class ConsolidationScene(Model):
    """A current scene document."""

    name: SceneSlug
    content_digest: Hex64
    heat: PositiveInt
    content: NonEmpty


class ConsolidationDoctrine(Model):
    """The current doctrine document."""

    content_digest: Hex64
    content: NonEmpty


class ConsolidationPolicy(Model):
    """Scene capacity thresholds and the heat algorithm."""

    max_scenes: Literal[15] = 15
    merge_preferred_at: Literal[12] = 12
    create_forbidden_at: Literal[14] = 14
    due_entry_count: PositiveInt = 20
    heat_algorithm: Literal["scene-heat@1"] = "scene-heat@1"


class ConsolidationPrompts(Model):
    """The versioned consolidation prompt, embedded in the task."""

    prompt_version: NonEmpty
    consolidation: NonEmpty


class ConsolidationContract(Model):
    """The output contract of a consolidation task."""

    patch_schema: Literal["git-memory-consolidation-patch@v1"] = PATCH_FORMAT
    prompts: ConsolidationPrompts
    # The whole JSON Schema of the document that answers the task: an agent (or runner)
    # writes a valid document from it without any other reference.
    document_schema: dict[str, Any] = Field(
        default_factory=schema_of("git_memory.contracts.consolidation.ConsolidationPatch")
    )


class ConsolidationTask(Model):
    """Approved entries (sorted by id), scenes (sorted by name) and doctrine to consolidate."""

    format: Literal["git-memory-consolidation-task@v1"] = TASK_FORMAT
    task_id: Identifier
    lease: Lease
    binding: ConsolidationBinding
    entries: list[ConsolidationEntry]
    scenes: list[ConsolidationScene]
    doctrine: ConsolidationDoctrine | None
    policy: ConsolidationPolicy
    contract: ConsolidationContract

    @field_validator("entries")
    @classmethod
    def _entries_sorted(cls, value: list[ConsolidationEntry]) -> list[ConsolidationEntry]:
        unique_by(value, lambda item: item.entry_id, "entryId")
        return sorted(value, key=lambda item: item.entry_id)

    @field_validator("scenes")
    @classmethod
    def _scenes_sorted(cls, value: list[ConsolidationScene]) -> list[ConsolidationScene]:
        unique_by(value, lambda item: item.name, "scene name")
        return sorted(value, key=lambda item: item.name)


class PatchOperation(Model):
    """One scene or doctrine change; paths are derived from `target` and `name` only."""

    operation_id: Identifier
    op: Literal["create", "update", "merge", "delete"]
    target: Literal["scene", "doctrine"]
    name: SceneSlug
    new_content: str | None
    based_on_entry_ids: list[Identifier]
    merge_sources: list[SceneSlug]
    rationale: NonEmpty

    @field_validator("based_on_entry_ids", "merge_sources")
    @classmethod
    def _unique_refs(cls, value: list[str]) -> list[str]:
        return unique_by(value, lambda item: item, "reference")


class ConsolidationPatch(Model):
    """The model's answer to a ConsolidationTask; an empty operation list is a no-op."""

    format: Literal["git-memory-consolidation-patch@v1"] = PATCH_FORMAT
    task_id: Identifier
    binding: ConsolidationBinding
    operations: list[PatchOperation]

    @field_validator("operations")
    @classmethod
    def _unique_operations(cls, value: list[PatchOperation]) -> list[PatchOperation]:
        return unique_by(value, lambda item: item.operation_id, "operationId")


def entry_set_digest(entries: list[EntryRevision]) -> str:
    """`digest` of the `{entryId, revision, contentDigest}` items sorted by entryId."""
    ordered = sorted(entries, key=lambda item: item.entry_id)
    return digest([item.to_json() for item in ordered])


def scene_index_digest(scenes: list[SceneRevision]) -> str:
    """`digest` of the `{name, contentDigest, heat}` items sorted by name."""
    ordered = sorted(scenes, key=lambda item: item.name)
    return digest([item.to_json() for item in ordered])


class SynthesisGuidance(Model):
    """What the agent should do with a synthesis response."""

    next_action: NonEmpty
    request_format: NonEmpty
    rule: NonEmpty


class Synthesis(Model):
    """`git memory synthesize`: a consolidation task, or why there is none."""

    format: Literal["git-memory-synthesis@v1"] = "git-memory-synthesis@v1"
    task: ConsolidationTask | None
    entry_count: NonNegativeInt
    due_at: PositiveInt | None = None
    pending_run_id: Identifier | None = None
    guidance: SynthesisGuidance
    note: str | None = None
