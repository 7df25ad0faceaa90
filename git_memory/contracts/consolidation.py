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
    analyzerVersion: NonEmpty
    coverage: Literal["complete"] = "complete"
    sourceTreeDigest: Hex64


class EntryRevision(Model):
    """An approved entry as the task saw it."""

    entryId: Identifier
    revision: PositiveInt
    contentDigest: Hex64


class SceneRevision(Model):
    """A scene as the task saw it."""

    name: SceneSlug
    contentDigest: Hex64
    heat: PositiveInt


class Replay(Model):
    """Incremental (since the last successful run) or full replay."""

    mode: Literal["incremental", "full"]
    afterSuccessfulRunId: Identifier | None


class ConsolidationBinding(Model):
    """Echoed verbatim by ConsolidationPatch; `taskId = "consolidate-" + digest(binding)`."""

    databaseUuid: NonEmpty
    memoryStateUuid: NonEmpty
    owner: OwnerKeys
    approvedProjection: ApprovedProjectionState
    entrySetDigest: Hex64
    entryRevisions: list[EntryRevision]
    sceneIndexDigest: Hex64
    sceneRevisions: list[SceneRevision]
    doctrineDigest: Hex64 | None
    replay: Replay
    promptVersion: NonEmpty
    schemaVersion: Literal["git-memory-consolidation-task@v1"] = TASK_FORMAT
    policyVersion: NonEmpty

    def expected_task_id(self) -> str:
        """`consolidate-<digest(binding)>`."""
        return "consolidate-" + digest(self.to_json())


class ConsolidationEntry(Model):
    """An approved entry handed to the model."""

    entryId: Identifier
    revision: PositiveInt
    contentDigest: Hex64
    type: CandidateType
    scene: SceneName | None
    priority: Priority
    confidence: Confidence
    body: NonEmpty


class ConsolidationScene(Model):
    """A current scene document."""

    name: SceneSlug
    contentDigest: Hex64
    heat: PositiveInt
    content: NonEmpty


class ConsolidationDoctrine(Model):
    """The current doctrine document."""

    contentDigest: Hex64
    content: NonEmpty


class ConsolidationPolicy(Model):
    """Scene capacity thresholds and the heat algorithm."""

    maxScenes: Literal[15] = 15
    mergePreferredAt: Literal[12] = 12
    createForbiddenAt: Literal[14] = 14
    dueEntryCount: PositiveInt = 20
    heatAlgorithm: Literal["scene-heat@1"] = "scene-heat@1"


class ConsolidationPrompts(Model):
    """The versioned consolidation prompt, embedded in the task."""

    promptVersion: NonEmpty
    consolidation: NonEmpty


class ConsolidationContract(Model):
    """The output contract of a consolidation task."""

    patchSchema: Literal["git-memory-consolidation-patch@v1"] = PATCH_FORMAT
    prompts: ConsolidationPrompts
    # The whole JSON Schema of the document that answers the task: an agent (or runner)
    # writes a valid document from it without any other reference.
    documentSchema: dict[str, Any] = Field(
        default_factory=schema_of("git_memory.contracts.consolidation.ConsolidationPatch")
    )


class ConsolidationTask(Model):
    """Approved entries (sorted by id), scenes (sorted by name) and doctrine to consolidate."""

    format: Literal["git-memory-consolidation-task@v1"] = TASK_FORMAT
    taskId: Identifier
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
        unique_by(value, lambda item: item.entryId, "entryId")
        return sorted(value, key=lambda item: item.entryId)

    @field_validator("scenes")
    @classmethod
    def _scenes_sorted(cls, value: list[ConsolidationScene]) -> list[ConsolidationScene]:
        unique_by(value, lambda item: item.name, "scene name")
        return sorted(value, key=lambda item: item.name)


class PatchOperation(Model):
    """One scene or doctrine change; paths are derived from `target` and `name` only."""

    operationId: Identifier
    op: Literal["create", "update", "merge", "delete"]
    target: Literal["scene", "doctrine"]
    name: SceneSlug
    newContent: str | None
    basedOnEntryIds: list[Identifier]
    mergeSources: list[SceneSlug]
    rationale: NonEmpty

    @field_validator("basedOnEntryIds", "mergeSources")
    @classmethod
    def _unique_refs(cls, value: list[str]) -> list[str]:
        return unique_by(value, lambda item: item, "reference")


class ConsolidationPatch(Model):
    """The model's answer to a ConsolidationTask; an empty operation list is a no-op."""

    format: Literal["git-memory-consolidation-patch@v1"] = PATCH_FORMAT
    taskId: Identifier
    binding: ConsolidationBinding
    operations: list[PatchOperation]

    @field_validator("operations")
    @classmethod
    def _unique_operations(cls, value: list[PatchOperation]) -> list[PatchOperation]:
        return unique_by(value, lambda item: item.operationId, "operationId")


def entry_set_digest(entries: list[EntryRevision]) -> str:
    """`digest` of the `{entryId, revision, contentDigest}` items sorted by entryId."""
    ordered = sorted(entries, key=lambda item: item.entryId)
    return digest([item.to_json() for item in ordered])


def scene_index_digest(scenes: list[SceneRevision]) -> str:
    """`digest` of the `{name, contentDigest, heat}` items sorted by name."""
    ordered = sorted(scenes, key=lambda item: item.name)
    return digest([item.to_json() for item in ordered])


class SynthesisGuidance(Model):
    """What the agent should do with a synthesis response."""

    nextAction: NonEmpty
    requestFormat: NonEmpty
    rule: NonEmpty


class Synthesis(Model):
    """`git memory synthesize`: a consolidation task, or why there is none."""

    format: Literal["git-memory-synthesis@v1"] = "git-memory-synthesis@v1"
    task: ConsolidationTask | None
    entryCount: NonNegativeInt
    dueAt: PositiveInt | None = None
    pendingRunId: Identifier | None = None
    guidance: SynthesisGuidance
    note: str | None = None
