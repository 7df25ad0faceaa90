"""Request documents of the agent-native operations (recall, review, discard).

The stage request is the staged document itself, chosen by its `format`; prepare takes
PrepareRequest (`promotion.py`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, RootModel

from git_memory.contracts.base import Model, WireNames
from git_memory.contracts.extraction import Identifier, MemoryExtractionRequest, PositiveInt
from git_memory.contracts.stage import StageDocument

MAX_RECALL_LIMIT = 8


class RecallRequest(Model):
    """`git memory recall`: the extraction request and how many pending tasks to return."""

    format: Literal["git-memory-recall-request@v1"] = "git-memory-recall-request@v1"
    request: MemoryExtractionRequest
    limit: Annotated[int, Field(ge=1, le=MAX_RECALL_LIMIT)] = 1
    # The prompts and schemas again, though an earlier recall of this MCP session handed them
    # out (`extract/contracts_handed.py`); the recall that leaves them out says so.
    with_contracts: bool = False


class ReviewRequest(Model):
    """`git memory review`: which quarantined kind to list (all kinds when omitted)."""

    format: Literal["git-memory-review-request@v1"] = "git-memory-review-request@v1"
    kind: Literal["entry", "skill", "consolidation"] | None = None


class DiscardRequest(Model):
    """`git memory discard`: drop one quarantined candidate at the revision the human saw
    (the current revision when none is given)."""

    format: Literal["git-memory-discard-request@v1"] = "git-memory-discard-request@v1"
    candidate_id: Identifier
    revision: PositiveInt | None = None


class DiscardResponse(Model):
    """The discarded candidate and its new revision."""

    format: Literal["git-memory-discard@v1"] = "git-memory-discard@v1"
    candidate_id: Identifier
    revision: PositiveInt
    status: Literal["discarded"] = "discarded"


class StageRequest(RootModel[StageDocument], WireNames):
    """`git memory stage`: one document, chosen by its `format` — a CandidateDraftBatch, an
    AdjudicationResult, a SkillCandidate or a ConsolidationPatch."""

    model_config = ConfigDict(frozen=True)

    def to_json(self) -> dict[str, Any]:
        """The staged document."""
        document: dict[str, Any] = self.root.model_dump(mode="json", by_alias=True)
        return document
