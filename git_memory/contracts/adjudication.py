"""Adjudication: the task comparing drafts with the recall pool, and the model's decisions."""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import (
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from git_memory.contracts.base import Hex64, Model, schema_of, wire_name
from git_memory.contracts.extraction import (
    SHARED_DESCRIPTION,
    CandidateType,
    DraftCandidate,
    Identifier,
    Lease,
    NonEmpty,
    NonNegativeInt,
    OwnerKeys,
    PositiveInt,
    Priority,
    SceneName,
    is_absent,
    unique_by,
)

RESULT_FORMAT: Final = "git-memory-adjudication-result@v1"
RECALL_ALGORITHM = "recall-rrf@1"
ADJUDICATION_PROMPT_VERSION = "memory-adjudication@2"
MAX_DRAFTS = 64
PoolSourceKind = Literal["approved", "candidate"]
Action = Literal["store", "skip", "update", "merge"]


class Projection(Model):
    """A projection's generation and analyzer version at recall time."""

    generation: NonNegativeInt
    analyzer_version: NonEmpty


class PoolItemRevision(Model):
    """The revision of one pool item the decisions were made against."""

    source_kind: PoolSourceKind
    id: Identifier
    revision: NonNegativeInt


class AdjudicationBinding(Model):
    """Echoed verbatim by AdjudicationResult; any drift makes the task stale."""

    database_uuid: NonEmpty
    memory_state_uuid: NonEmpty
    owner: OwnerKeys
    draft_batch_digest: Hex64
    approved_projection: Projection
    candidate_projection: Projection
    recall_algorithm_version: NonEmpty
    recall_query_digest: Hex64
    result_set_digest: Hex64
    pool_item_revisions: list[PoolItemRevision]
    prompt_version: NonEmpty
    schema_version: NonEmpty
    reissue_of: Identifier | None = Field(
        default=None,
        exclude_if=is_absent,
        description="The stale adjudication task of the same drafts this one replaces.",
    )


class TaskDraft(DraftCandidate):
    """A draft of the batch, with the candidate id decisions refer to (`draftRef`)."""

    candidate_id: Identifier

    @field_validator("statements")
    @classmethod
    def _unique_statements(cls, value: list[Any]) -> list[Any]:
        return unique_by(value, lambda item: item.statement_id, "statementId")


class RecallHit(Model):
    """One ranked recall hit (rank starts at 1)."""

    rank: PositiveInt
    source_kind: PoolSourceKind
    id: Identifier


class RecallSet(Model):
    """The fused recall list of one draft."""

    draft_ref: Identifier
    ordered: list[RecallHit]


class PoolItem(Model):
    """An existing approved entry or candidate the drafts are compared with."""

    source_kind: PoolSourceKind
    id: Identifier
    revision: NonNegativeInt
    content_digest: Hex64
    state: NonEmpty
    summary: str


class AdjudicationPrompts(Model):
    """The versioned adjudication prompt, embedded in the task (or shared by the recall)."""

    prompt_version: NonEmpty
    adjudication: NonEmpty | SkipJsonSchema[None] = Field(default=None, exclude_if=is_absent)


class AdjudicationContract(Model):
    """The output contract of an adjudication task."""

    result_schema: Literal["git-memory-adjudication-result@v1"] = RESULT_FORMAT
    prompts: AdjudicationPrompts
    # The whole JSON Schema of the document that answers the task: an agent (or runner)
    # writes a valid document from it without any other reference.
    document_schema: dict[str, Any] | SkipJsonSchema[None] = Field(
        default_factory=schema_of("git_memory.contracts.adjudication.AdjudicationResult"),
        exclude_if=is_absent,
    )
    shared_in: Literal["contracts.adjudication"] | SkipJsonSchema[None] = Field(
        default=None, exclude_if=is_absent, description=SHARED_DESCRIPTION
    )

    def pointing(self) -> AdjudicationContract:
        """This contract without the prompt text and schema the recall carries once."""
        prompts = AdjudicationPrompts(prompt_version=self.prompts.prompt_version)
        return AdjudicationContract(
            prompts=prompts, document_schema=None, shared_in="contracts.adjudication"
        )


class AdjudicationTask(Model):
    """Drafts (1..64), their recall sets and the deduplicated pool."""

    format: Literal["git-memory-adjudication-task@v1"] = "git-memory-adjudication-task@v1"
    task_id: Identifier
    lease: Lease
    binding: AdjudicationBinding
    drafts: Annotated[list[TaskDraft], Field(min_length=1, max_length=MAX_DRAFTS)]
    recall_sets: list[RecallSet]
    pool: list[PoolItem]
    contract: AdjudicationContract

    def sharing_contract(self) -> AdjudicationTask:
        """The task as handed out to an agent: its contract points to the recall's."""
        return self.model_copy(update={"contract": self.contract.pointing()})

    @field_validator("drafts")
    @classmethod
    def _unique_drafts(cls, value: list[TaskDraft]) -> list[TaskDraft]:
        return unique_by(value, lambda item: item.candidate_id, "candidateId")

    @field_validator("pool")
    @classmethod
    def _unique_pool(cls, value: list[PoolItem]) -> list[PoolItem]:
        return unique_by(value, lambda item: (item.source_kind, item.id), "pool item")


class MergedFields(Model):
    """Replacement fields of an update/merge. Absent and null differ (`scene: null` clears
    the scene), so only the fields that were given appear in the JSON document."""

    content: NonEmpty | SkipJsonSchema[None] = None
    type: CandidateType | SkipJsonSchema[None] = None
    priority: Priority | SkipJsonSchema[None] = None
    scene: SceneName | None = None
    occurred: list[NonEmpty] | SkipJsonSchema[None] = None

    @model_serializer(mode="wrap")
    def _only_given(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        given = {wire_name(name) for name in self.model_fields_set}
        return {key: value for key, value in data.items() if key in given}

    @model_validator(mode="after")
    def _null_only_for_scene(self) -> MergedFields:
        for name in ("content", "type", "priority", "occurred"):
            if name in self.model_fields_set and getattr(self, name) is None:
                raise ValueError(f"mergedFields.{name} must not be null")
        return self


class Adjudication(Model):
    """One decision; the structural rules of each action are checked here, membership of
    targets in the batch or pool by the host."""

    draft_ref: Identifier
    action: Action
    target_ids: list[Identifier]
    merged_fields: MergedFields | None

    @model_validator(mode="after")
    def _action_shape(self) -> Adjudication:
        unique_by(self.target_ids, lambda item: item, "targetId")
        if self.draft_ref in self.target_ids:
            raise ValueError(f"{self.draft_ref}: a draft cannot target itself")
        count, fields = len(self.target_ids), self.merged_fields is not None
        if self.action == "store" and (count or fields):
            raise ValueError(f"{self.draft_ref}: store takes no targets and null mergedFields")
        if self.action == "skip" and (count < 1 or fields):
            raise ValueError(f"{self.draft_ref}: skip needs >= 1 target and null mergedFields")
        if self.action == "update" and (count != 1 or not fields):
            raise ValueError(f"{self.draft_ref}: update needs exactly 1 target and mergedFields")
        if self.action == "merge" and (count < 1 or not fields):
            raise ValueError(f"{self.draft_ref}: merge needs >= 1 target and mergedFields")
        return self


class AdjudicationResult(Model):
    """The decisions for an AdjudicationTask: echoed taskId and binding, one per draft."""

    format: Literal["git-memory-adjudication-result@v1"] = RESULT_FORMAT
    task_id: Identifier
    binding: AdjudicationBinding
    adjudications: Annotated[list[Adjudication], Field(max_length=MAX_DRAFTS)]

    @field_validator("adjudications")
    @classmethod
    def _one_decision_per_draft(cls, value: list[Adjudication]) -> list[Adjudication]:
        return unique_by(value, lambda item: item.draft_ref, "draftRef")
