"""`git memory assemble` and `git memory context`: requests and responses."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field

from git_memory.contracts.base import Model, added_optional

MIN_BUDGET = 1000
MAX_BUDGET = 1_000_000
# The agents whose own instruction files assemble writes (docs/guide-context.md lists them).
Agent = Literal["claude", "codex", "opencode", "gemini", "qwen", "copilot", "cursor"]
AGENTS: tuple[Agent, ...] = get_args(Agent)


class AssembleRequest(Model):
    """Which provider's context file and skill directory to assemble (`all`: every agent
    assemble knows; `configured`, the default: the providers of `memory.assembleTargets`)."""

    format: Literal["git-memory-assemble-request@v1"] = "git-memory-assemble-request@v1"
    provider: Literal[Agent, "all", "configured"] = "configured"
    dry_run: bool = False


class AssembledFile(Model):
    """One worktree file assemble wrote, removed or left alone (path relative to the root)."""

    path: str
    action: Literal[
        "appended", "replaced", "unchanged", "create", "update", "remove", "kept-edited", "forget"
    ]


class BlockReport(Model):
    """What the rendered memory shows: its size, and which approved entries it shows (on their
    own line or through their scene's line), leaves out for lack of room, or holds back as
    stale."""

    bytes: int
    tokens: int = Field(description="Estimated tokens (bytes / 4, rounded up).")
    budget: int
    shown: list[str]
    via_scenes: list[str]
    left_out: list[str]
    held_back: list[str]
    scenes: int = Field(description="Scene lines shown.")
    scenes_left_out: int
    skills: int = Field(description="Skill lines shown.")
    skills_left_out: int
    doctrine: Literal["shown", "left-out", "none"]
    known: list[str] = Field(
        default_factory=list,
        description="Entries left out because the agent's own file or the README already "
        "says them (root block only).",
    )


class ScopedBlock(Model):
    """A block of the entries that apply below one directory (`scope`), in the agent's file
    for that directory; `remove`/`update`: a directory without entries any more lost its block
    (the file removed, or kept for the text around the block)."""

    path: str
    scope: str
    action: Literal["appended", "replaced", "unchanged", "remove", "update"]
    shown: list[str]
    bytes: int


class ProviderAssembly(Model):
    """One provider's context file, skill projections and block (`sharedWith`: the other
    providers of `memory.assembleTargets` that read the same file, written once)."""

    provider: Agent
    changed: bool
    target: AssembledFile
    skills: list[AssembledFile]
    block: BlockReport
    shared_with: list[Agent] = Field(default_factory=list)
    scoped: list[ScopedBlock] = Field(default_factory=list)


class AssembleResponse(Model):
    """What assemble changed; with `dryRun`, what it would change (`diff`). `target`, `skills`
    and `block` describe the first provider assembled; `providers` lists every one."""

    format: Literal["git-memory-assemble@v1"] = "git-memory-assemble@v1"
    provider: Literal[Agent, "all", "configured"]
    dry_run: bool
    changed: bool
    target: AssembledFile
    skills: list[AssembledFile]
    block: BlockReport
    providers: list[ProviderAssembly]
    diff: str
    notes: list[str] = Field(default_factory=list)
    chosen: str | None = added_optional(
        1024, "Without a provider: which agents were assembled for, and why those."
    )


class ContextRequest(Model):
    """Print the memory block: whole, or with the entries matching `query` first."""

    format: Literal["git-memory-context-request@v1"] = "git-memory-context-request@v1"
    query: str | None = Field(default=None, max_length=1024)
    budget: int | None = Field(
        default=None,
        ge=MIN_BUDGET,
        le=MAX_BUDGET,
        description="Bytes; default `memory.assembleBudget` (8000).",
    )
    provider: Agent = "claude"
    path: str | None = added_optional(
        4096,
        "Worktree-relative path the agent works at: the blocks of the directories containing "
        "it follow the root block.",
    )


class ContextResponse(Model):
    """The rendered memory (`text`, what `git memory context` prints) and what it shows."""

    format: Literal["git-memory-context@v1"] = "git-memory-context@v1"
    query: str | None
    text: str
    block: BlockReport
    notes: list[str] = Field(default_factory=list)
    scopes: list[ScopedBlock] = Field(
        default_factory=list, description="The scoped blocks printed after the root block."
    )
