"""Which tools `git memory mcp` lists: the everyday flow's by default, every tool on request.

A client puts every listed tool's name, description and argument schema into each model
request of a session, so the default surface is the agent flow of docs/guide-agent.md and
nothing more (at most `EVERYDAY_BUDGET` bytes, measured by tests/mcp/test_tool_surface.py);
`git memory mcp --tools all` or `git config memory.mcpTools all` lists the rest too. This
module imports no MCP SDK: the surface is known before the handshake is answered.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from git_memory import _proc
from git_memory.errors import GitMemoryError

TOOLS_KEY = "memory.mcpTools"
EVERYDAY = "everyday"
ALL = "all"
SURFACES = (EVERYDAY, ALL)
# The tools of the everyday flow: recall, stage, review, prepare, promote, and the read-only
# look-ups an agent makes along the way.
EVERYDAY_TOOLS = (
    "memory_status",
    "memory_search",
    "memory_recall",
    "memory_stage_drafts",
    "memory_stage_adjudication",
    "memory_review",
    "memory_prepare",
    "memory_promote",
)
# Bytes of names, descriptions and argument schemas the everyday surface may show the model.
EVERYDAY_BUDGET = 8_000
# The `git` variables a config lookup keeps (which configuration files git reads).
_CONFIG_VARIABLES = ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM")


def listed(surface: str, names: list[str]) -> list[str]:
    """The tool names of `names` (in their order) that `surface` lists."""
    if surface == ALL:
        return list(names)
    return [name for name in names if name in EVERYDAY_TOOLS]


def shown_bytes(tool: dict[str, Any]) -> int:
    """The bytes a client spends on `tool` (as tools/list gives it) in every model request:
    its name, description and argument schema as compact JSON, what clients send on."""
    shown = {key: tool[key] for key in ("name", "description", "inputSchema")}
    return len(json.dumps(shown, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def checked(value: str, source: str) -> str:
    """`value` when it names a surface; GM_CONFIG_INVALID (naming `source`) otherwise."""
    if value in SURFACES:
        return value
    raise GitMemoryError(
        "GM_CONFIG_INVALID",
        f"{source} must be {EVERYDAY!r} or {ALL!r}: {value!r}",
        hint=f"git config {TOOLS_KEY} {ALL}   (or leave it unset for the everyday tools)",
    )


def configured_surface(repository: Path | str | None) -> str:
    """The surface `memory.mcpTools` names for the worktree at `repository` (default: the
    current directory), as git resolves it; the everyday surface when unset.

    Read with one `git config` call (a few milliseconds), not pygit2, which loads while the
    handshake is answered.
    """
    env = _proc.scrubbed_environment(keep_git=_CONFIG_VARIABLES)
    try:
        completed = _proc.run(["git", "config", "--get", TOOLS_KEY], cwd=repository, env=env)
    except OSError:
        return EVERYDAY
    value = completed.stdout.decode("utf-8", "replace").strip()
    if completed.returncode != 0 or not value:
        return EVERYDAY
    return checked(value, TOOLS_KEY)
