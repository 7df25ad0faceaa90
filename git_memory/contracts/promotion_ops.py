"""Requests and responses of `git memory prepare` and `git memory promote`."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from git_memory.contracts.base import Hex64, Model
from git_memory.contracts.extraction import Identifier, is_absent
from git_memory.contracts.promotion import PlanFile


class PreparedPlan(Model):
    """The plan `prepare` stored (status `generated`): approve it by `planDigest`."""

    format: Literal["git-memory-prepared-plan@v1"] = "git-memory-prepared-plan@v1"
    plan_id: Identifier
    plan_digest: Hex64
    status: Literal["generated"] = "generated"
    candidate_ids: list[Identifier]
    assessment_digest: Hex64
    policy_version: str
    per_file: list[PlanFile]
    diff: str
    next: str
    agent_files: list[str] | None = Field(
        default=None,
        exclude_if=is_absent,
        description="The agents' files the plan brings up to date after its memory files.",
    )


class PromoteRequest(Model):
    """`git memory promote --plan ID [--approve PLAN_DIGEST]`."""

    format: Literal["git-memory-promote-request@v1"] = "git-memory-promote-request@v1"
    plan: Identifier
    approve: Hex64 | None = None


class PromotionResult(Model):
    """An applied plan. `replayed`: it had already been applied (nothing was written)."""

    format: Literal["git-memory-promotion-result@v1"] = "git-memory-promotion-result@v1"
    plan_id: Identifier
    plan_digest: Hex64
    status: Literal["applied"] = "applied"
    replayed: bool
    resumed: bool
    files: list[str]
    # The files of `files` that did not exist before the plan (untracked until added), and
    # the generated index's path when applying changed it (written beside the plan's files).
    created: list[str] = Field(default_factory=list)
    regenerated_index: str | None = None
    candidate_ids: list[Identifier]
    approved_via: str | None = None
    notes: list[str] = Field(default_factory=list)
