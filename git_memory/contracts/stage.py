"""AgentStage@v1 and the four documents `git memory stage` accepts (selected by `format`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool

from git_memory.contracts.adjudication import (
    Action,
    AdjudicationResult,
    AdjudicationTask,
    PoolItem,
    RecallSet,
)
from git_memory.contracts.base import Hex64, Model
from git_memory.contracts.consolidation import ConsolidationPatch
from git_memory.contracts.extraction import (
    CandidateDraftBatch,
    CandidateStatus,
    Identifier,
    NonEmpty,
    PositiveInt,
    is_absent,
)
from git_memory.contracts.review import CandidateKind, ReviewItem
from git_memory.contracts.skill import SkillCandidate

StageDocument = Annotated[
    CandidateDraftBatch | AdjudicationResult | SkillCandidate | ConsolidationPatch,
    Field(discriminator="format"),
]


class StagedCandidate(Model):
    """A candidate the stage created or changed."""

    candidate_id: Identifier
    revision: PositiveInt
    kind: CandidateKind
    status: CandidateStatus


class RecallComparison(Model):
    """The dual recall the adjudication task was built from."""

    recall_algorithm_version: NonEmpty
    recall_sets: list[RecallSet]
    pool: list[PoolItem]
    result_set_digest: Hex64


class RejectedCandidate(Model):
    """A drafted candidate the host did not keep, and why (its 1-based position)."""

    candidate: PositiveInt
    reason: NonEmpty
    detail: str


class AgentStage(Model):
    """`git memory stage`: either an adjudication task to answer, or staged candidates."""

    format: Literal["git-memory-agent-stage@v1"] = "git-memory-agent-stage@v1"
    action: Literal["stage"] = "stage"
    task_id: Identifier
    adjudication_task_id: Identifier | None = None
    status: Literal["adjudication-required", "staged"]
    no_op: StrictBool
    candidates: list[StagedCandidate]
    review_items: list[ReviewItem]
    adjudication_task: AdjudicationTask | None = None
    recall_comparison: RecallComparison | None = None
    next: NonEmpty
    skill: StrictBool = False
    rejected: list[RejectedCandidate] = Field(default_factory=list)


# The outcomes a stage stores with its accepted submission (a JSON column of the task store)
# and replays, as stored, when the same bytes are staged again.


class DraftsOutcome(Model):
    """What staging a CandidateDraftBatch did: the drafts kept, the candidates refused, and the
    adjudication task the kept drafts need (none for a no-op)."""

    task_id: Identifier
    candidate_ids: list[Identifier]
    rejected: list[RejectedCandidate]
    no_op: StrictBool
    adjudication_task: AdjudicationTask | None = Field(default=None, exclude_if=is_absent)


class DecisionOutcome(Model):
    """One applied adjudication decision: the draft as it is now."""

    candidate_id: Identifier
    action: Action
    status: CandidateStatus
    revision: PositiveInt
    target_ids: list[Identifier]


class AdjudicationOutcome(Model):
    """What staging an AdjudicationResult did, and the extraction task it finished."""

    task_id: Identifier
    extraction_task_id: Identifier | None
    decisions: list[DecisionOutcome]


class SkillOutcome(Model):
    """What staging a SkillCandidate did: the quarantined skill candidate."""

    task_id: Identifier
    candidate_ids: list[Identifier]
