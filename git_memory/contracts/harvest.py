"""`git memory harvest`: agents' own memory items offered for review."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from git_memory.contracts.base import Model
from git_memory.contracts.extraction import Identifier

StoreName = Literal[
    "claude-auto-memory",
    "claude-agent-memory",
    "claude-local",
    "agents-override",
    "gemini-memories",
    "serena-memories",
    "codex-memories",
    "gemini-skill-inbox",
    "copilot-instructions",
]


class HarvestRequest(Model):
    """`git memory harvest`: which stores to read (default: those `memory.sources` turns on)."""

    format: Literal["git-memory-harvest-request@v1"] = "git-memory-harvest-request@v1"
    stores: list[StoreName] = Field(default_factory=list)


class HarvestedStore(Model):
    """A store found for this worktree, with how many items it holds."""

    store: StoreName
    files: int
    items: int


class HarvestOffer(Model):
    """An item offered for review: its candidate, store, item key, digest and kind."""

    candidate_id: Identifier
    store: StoreName
    item: str
    content_digest: str
    kind: Literal["command", "trap", "rule", "fact"]
    action: Literal["store", "update"]


class HarvestDiagnostic(Model):
    """A file of a store that was not read (its name inside the store, never its content)."""

    store: StoreName
    file: str
    code: str
    message: str


class HarvestResponse(Model):
    """What harvest offered, and what it left alone and why."""

    format: Literal["git-memory-harvest@v1"] = "git-memory-harvest@v1"
    stores: list[HarvestedStore]
    offered: list[HarvestOffer]
    unchanged: int
    already_approved: int
    diagnostics: list[HarvestDiagnostic]
