"""`git memory assemble`: request and response."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from git_memory.contracts.base import Model


class AssembleRequest(Model):
    """Which provider's context file and skill directory to assemble."""

    format: Literal["git-memory-assemble-request@v1"] = "git-memory-assemble-request@v1"
    provider: Literal["claude", "codex"]
    dryRun: bool = False


class AssembledFile(Model):
    """One worktree file assemble wrote, removed or left alone (path relative to the root)."""

    path: str
    action: Literal[
        "appended", "replaced", "unchanged", "create", "update", "remove", "kept-edited", "forget"
    ]


class AssembleResponse(Model):
    """What assemble changed; with `dryRun`, what it would change (`diff`)."""

    format: Literal["git-memory-assemble@v1"] = "git-memory-assemble@v1"
    provider: Literal["claude", "codex"]
    dryRun: bool
    changed: bool
    target: AssembledFile
    skills: list[AssembledFile]
    diff: str
    notes: list[str] = Field(default_factory=list)
