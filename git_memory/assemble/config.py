"""Assembly settings from git config: the byte budget and the targets of `--provider all`."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from git_memory.assemble.render import TARGET_FILES, Provider
from git_memory.contracts.assemble import MAX_BUDGET, MIN_BUDGET
from git_memory.errors import GitMemoryError
from git_memory.sessions.agents import worktree_agents

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree

DEFAULT_BUDGET = 8000
DEFAULT_TARGETS: tuple[Provider, ...] = ("claude", "codex")
# The session index's name of each agent → the assemble target that agent reads.
INDEXED_AGENTS: dict[str, Provider] = {
    "claude-code": "claude",
    "codex": "codex",
    "opencode": "opencode",
    "gemini-cli": "gemini",
    "qwen-code": "qwen",
    "copilot-cli": "copilot",
    "cursor": "cursor",
    # Antigravity reads GEMINI.md, and AGENTS.md (codex's target, a default) since 1.20.3.
    "antigravity": "gemini",
}


def assemble_budget(worktree: Worktree) -> int:
    """`memory.assembleBudget` in bytes (1000 to 1000000), default 8000."""
    configured = worktree.config_value("memory.assembleBudget")
    if configured is None:
        return DEFAULT_BUDGET
    try:
        value = int(configured.strip())
    except ValueError:
        value = 0
    if not MIN_BUDGET <= value <= MAX_BUDGET:
        raise GitMemoryError(
            "GM_CONFIG_INVALID",
            f"memory.assembleBudget must be a number of bytes from {MIN_BUDGET} to "
            f"{MAX_BUDGET}: {configured!r}",
            hint=f"git config memory.assembleBudget {DEFAULT_BUDGET}",
        )
    return value


def assemble_targets(worktree: Worktree) -> list[Provider]:
    """`memory.assembleTargets`: providers separated by commas or spaces; by default claude,
    codex and every agent this worktree's indexed sessions come from."""
    configured = worktree.config_value("memory.assembleTargets")
    if configured is None:
        seen = [
            INDEXED_AGENTS[name] for name in worktree_agents(worktree) if name in INDEXED_AGENTS
        ]
        return list(dict.fromkeys([*DEFAULT_TARGETS, *sorted(seen)]))
    names = [name for name in configured.replace(",", " ").split() if name]
    unknown = [name for name in names if name not in TARGET_FILES]
    if unknown or not names:
        raise GitMemoryError(
            "GM_CONFIG_INVALID",
            f"memory.assembleTargets must list providers among "
            f"{', '.join(TARGET_FILES)}: {configured!r}",
            hint="git config memory.assembleTargets claude,codex,gemini",
        )
    return [cast(Provider, name) for name in dict.fromkeys(names)]
