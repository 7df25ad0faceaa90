"""Responses of `init` and `status`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from git_memory.contracts.base import Model
from git_memory.contracts.binding import RepositoryBinding


class EmptyRequest(Model):
    """A request with no fields (operations driven only by the worktree)."""


class InitResponse(Model):
    """What `git memory init` created (paths relative to the worktree root)."""

    format: Literal["git-memory-init@v1"] = "git-memory-init@v1"
    memory_root: str
    created: list[str]
    # The commands that come next for this clone, in order (hooks first when missing).
    next: list[str] = Field(default_factory=list)


class StatusResponse(Model):
    """`git memory status`: the binding plus counts contributed by each subsystem."""

    format: Literal["git-memory-status@v1"] = "git-memory-status@v1"
    binding: RepositoryBinding
    memory_root: str
    memory_root_exists: bool
    counts: dict[str, Any] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
