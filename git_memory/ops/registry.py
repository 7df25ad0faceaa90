"""The operation registry: every operation is declared here once.

A declaration is light (no pydantic import) so `git memory -h` can list commands without
loading any operation. The operation's module binds the declaration to its request and
response models and handler as `OPERATION` (see `ops/base.py`). The CLI and the MCP server are
adapters generated from this table; `tests/ops/test_registry.py` fails when an operation has
no CLI command or the MCP side disagrees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

SideEffect = Literal["none", "private-state", "external-delivery", "worktree"]


@dataclass(frozen=True)
class OperationSpec:
    """What is known about an operation before its module is imported."""

    name: str
    module: str
    summary: str
    side_effect: SideEffect
    cli_path: tuple[str, ...]
    mcp_tool: str | None = None
    # Why an operation has no MCP tool (CLI-only by design); required when mcp_tool is None.
    cli_only_reason: str | None = None

    @property
    def cli_name(self) -> str:
        """The command as typed after `git memory`."""
        return " ".join(self.cli_path)


def _op(
    name: str,
    summary: str,
    side_effect: SideEffect,
    *,
    cli_path: tuple[str, ...] | None = None,
    mcp_tool: str | None = None,
    cli_only: str | None = None,
    module: str | None = None,
) -> OperationSpec:
    return OperationSpec(
        name=name,
        module=module or f"git_memory.ops.{name.replace('-', '_')}",
        summary=summary,
        side_effect=side_effect,
        cli_path=cli_path or (name,),
        mcp_tool=mcp_tool,
        cli_only_reason=cli_only,
    )


OPERATIONS: tuple[OperationSpec, ...] = (
    _op(
        "init",
        "Create the memory root in this worktree.",
        "worktree",
        cli_only="sets up the repository; an agent has no reason to run it",
    ),
    _op(
        "status",
        "Show the binding, counts and pending work of this worktree.",
        "none",
        mcp_tool="memory_status",
    ),
    _op(
        "schema",
        "Write or check the JSON Schemas generated from the contracts.",
        "worktree",
        cli_only="a developer tool for this project's schema/ directory",
    ),  # --- memory files, lint, hooks, index (issue 3) ---
    # --- session index (issue 4) ---
    # --- memory state, search (issue 5) ---
    # --- agent-native extraction: recall, stage, review (issue 6) ---
    # --- promotion: prepare, promote (issue 7) ---
    # --- runners and batch extraction (issue 8) ---
    # --- consolidation, skills, assemble (issue 9) ---
    # --- newcomer path: demo, doctor (issue 11) ---
)


def spec(name: str) -> OperationSpec:
    """The declaration named `name`."""
    for candidate in OPERATIONS:
        if candidate.name == name:
            return candidate
    raise KeyError(name)
