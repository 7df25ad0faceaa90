"""Request and response documents of `synthesize`, `consolidate` and `consolidate-preview`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, model_validator

from git_memory.contracts.base import Hex64, Model
from git_memory.contracts.extraction import Identifier, NonNegativeInt

RunnerName = Literal["claude", "codex", "command", "builtin"]
Endpoint = Annotated[str, StringConstraints(pattern=r"^https://", max_length=2048)]
ModelName = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class _ReplayFlags(Model):
    """`ifDue` and `full` exclude each other."""

    if_due: bool = False
    full: bool = False

    @model_validator(mode="after")
    def _not_both(self) -> Any:
        if self.if_due and self.full:
            raise ValueError("ifDue and full exclude each other")
        return self


class SynthesizeRequest(_ReplayFlags):
    """`git memory synthesize [--if-due | --full]`."""

    format: Literal["git-memory-synthesize-request@v1"] = "git-memory-synthesize-request@v1"


class ConsolidatePreviewRequest(_ReplayFlags):
    """`memory_consolidate_preview`: plan a runner delivery of the task; never sends."""

    runner: RunnerName
    model: ModelName | None = None
    endpoint: Endpoint | None = None


class ConsolidateRequest(_ReplayFlags):
    """`git memory consolidate --runner NAME`: the task through a runner, after approval."""

    format: Literal["git-memory-consolidate-request@v1"] = "git-memory-consolidate-request@v1"
    runner: RunnerName
    runner_command: Annotated[str, StringConstraints(min_length=1, max_length=4096)] | None = None
    model: ModelName | None = None
    endpoint: Endpoint | None = None
    approve_plan: Hex64 | None = None
    approve_manifest: Hex64 | None = None

    @model_validator(mode="after")
    def _one_approval(self) -> ConsolidateRequest:
        if self.approve_plan and self.approve_manifest:
            raise ValueError("approvePlan and approveManifest exclude each other")
        return self


class ConsolidateResult(Model):
    """What a consolidation run did: no task, a pending plan, or a staged patch."""

    format: Literal["git-memory-consolidate-result@v1"] = "git-memory-consolidate-result@v1"
    status: Literal["not-due", "nothing-new", "pending-run", "approval-required", "staged"]
    task_id: Identifier | None = None
    entry_count: NonNegativeInt = 0
    plans: list[dict[str, Any]] = Field(default_factory=list)
    manifest: dict[str, Any] | None = None
    authorized: bool = False
    stage: dict[str, Any] | None = None
    note: str | None = None
