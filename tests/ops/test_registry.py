"""The operation registry is the single source for the CLI (and later MCP)."""

from __future__ import annotations

import click
import pytest

from git_memory.cli.root_help import CLI_OPERATIONS
from git_memory.ops.base import load_declared
from git_memory.ops.registry import OPERATIONS
from tests.conftest import resolve_cli_command


@pytest.mark.parametrize("declaration", CLI_OPERATIONS, ids=lambda d: d.name)
def test_every_operation_has_a_cli_command(declaration: object) -> None:
    from git_memory.ops.registry import OperationSpec

    assert isinstance(declaration, OperationSpec)
    command = resolve_cli_command(declaration.cli_path)
    assert command is not None, f"{declaration.name} has no CLI command"
    assert not isinstance(command, click.Group)


@pytest.mark.parametrize("declaration", CLI_OPERATIONS, ids=lambda d: d.name)
def test_every_operation_binds_its_declaration(declaration: object) -> None:
    from git_memory.ops.registry import OperationSpec

    assert isinstance(declaration, OperationSpec)
    operation = load_declared(declaration)
    assert operation.handler.__doc__, "operation docstrings become --help and MCP descriptions"
    assert declaration.side_effect in {"none", "private-state", "external-delivery", "worktree"}
    assert (not declaration.mcp_tools) == (declaration.cli_only_reason is not None)
    assert not (declaration.mcp_tool and declaration.mcp_variants), "one tool or variants"


def test_names_are_unique() -> None:
    names = [d.name for d in CLI_OPERATIONS]
    paths = [d.cli_path for d in CLI_OPERATIONS]
    tools = [tool for d in OPERATIONS for tool in d.mcp_tools]
    assert len(set(names)) == len(names)
    assert len(set(paths)) == len(paths)
    assert len(set(tools)) == len(tools)


def test_the_registry_names_only_modules_of_ops() -> None:
    # ops/ sits below demo/ and doctor/: those declare themselves and the CLI adds them.
    assert [d.module for d in OPERATIONS if not d.module.startswith("git_memory.ops.")] == []
    assert {"demo", "doctor"} <= {d.name for d in CLI_OPERATIONS} - {d.name for d in OPERATIONS}
