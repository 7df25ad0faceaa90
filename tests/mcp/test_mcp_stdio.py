"""`git memory mcp` as a real subprocess, driven by the SDK's stdio client."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import types

from git_memory.mcp.surface import EVERYDAY_TOOLS
from git_memory.ops.registry import OPERATIONS
from tests.mcp.harness import server_parameters, stdio, structured
from tests.repos import Repo

# The handshake era (what Claude Code and Codex speak) and the SDK default (2026-07-28 when the
# server offers it).
MODES = ["legacy", "auto"]


def _tree_state(root: Path) -> dict[str, str]:
    """Every file under `root` with a digest of its bytes (what a no-op must leave alone)."""
    state = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            state[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return state


@pytest.mark.parametrize("mode", MODES)
def test_status_over_stdio_is_the_cli_document(
    mode: str, repo: Repo, gm: Any, tmp_path: Path
) -> None:
    # The first command creates the private state; compare on the state it leaves.
    assert gm(["status"], cwd=repo.root).exit_code == 0

    async def scenario() -> tuple[list[types.Tool], types.CallToolResult, str | None]:
        async with stdio(server_parameters(repo.root), tmp_path / "err.log", mode=mode) as client:
            tools = await client.list_tools()
            result = await client.call_tool("memory_status", {})
            return tools.tools, result, client.instructions

    tools, result, instructions = anyio.run(scenario)
    # The everyday surface, in registry order (tests/mcp/test_tool_surface.py: the others).
    registry = [name for d in OPERATIONS for name in d.mcp_tools]
    assert [tool.name for tool in tools] == [n for n in registry if n in EVERYDAY_TOOLS]
    assert not result.is_error
    cli = gm(["status", "--format", "json"], cwd=repo.root)
    assert cli.exit_code == 0, cli.stderr
    assert structured(result) == cli.json()
    assert instructions is not None
    assert "stage" in instructions
    assert "promote" in instructions
    status_tool = next(tool for tool in tools if tool.name == "memory_status")
    assert status_tool.annotations is not None
    assert status_tool.annotations.read_only_hint is True


@pytest.mark.parametrize("mode", MODES)
def test_malformed_requests_are_structured_errors_and_change_nothing(
    mode: str, repo: Repo, hermetic_env: dict[str, Path], tmp_path: Path
) -> None:
    async def scenario() -> list[tuple[str, types.CallToolResult]]:
        outcomes = []
        async with stdio(server_parameters(repo.root), tmp_path / "err.log", mode=mode) as client:
            await client.call_tool("memory_status", {})  # creates the private state once
            before.update(repo=repo.snapshot(), state=_tree_state(hermetic_env["state"]))
            tools = (await client.list_tools()).tools
            for tool in tools:
                outcomes.append((tool.name, await client.call_tool(tool.name, {"bogus": 1})))
                bad_format = await client.call_tool(tool.name, {"format": 7})
                outcomes.append((tool.name, bad_format))
            outcomes.append(("memory_nope", await client.call_tool("memory_nope", {})))
        return outcomes

    before: dict[str, Any] = {}
    outcomes = anyio.run(scenario)
    for name, result in outcomes:
        assert result.is_error, name
        document = structured(result)
        assert set(document) >= {"code", "problem", "next"}, name
        expected = "GM_MCP_UNKNOWN_TOOL" if name == "memory_nope" else "GM_REQUEST_INVALID"
        assert document["code"] == expected, (name, document)
    assert repo.snapshot() == before["repo"]
    assert _tree_state(hermetic_env["state"]) == before["state"]


@pytest.mark.parametrize("mode", MODES)
def test_server_outside_a_repository_says_so(mode: str, tmp_path: Path) -> None:
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    errlog = tmp_path / "err.log"

    async def scenario() -> tuple[types.CallToolResult, str | None]:
        async with stdio(server_parameters(nowhere), errlog, mode=mode) as client:
            return await client.call_tool("memory_status", {}), client.instructions

    result, instructions = anyio.run(scenario)
    assert result.is_error
    document = structured(result)
    assert document["code"] == "GM_NOT_A_WORKTREE"
    assert "--repository" in document["next"]
    # The handshake is answered before the server binds: its instructions are the same
    # everywhere, and every tool call says why this server is not usable.
    assert instructions is not None
    assert "memory_recall" in instructions
    assert "[GM_NOT_A_WORKTREE]" in errlog.read_text()


def test_repository_option_binds_from_elsewhere(repo: Repo, gm: Any, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    params = server_parameters(elsewhere, ("--repository", str(repo.root)))
    assert gm(["status"], cwd=repo.root).exit_code == 0

    async def scenario() -> types.CallToolResult:
        async with stdio(params, tmp_path / "err.log") as client:
            return await client.call_tool("memory_status", {})

    result = anyio.run(scenario)
    assert not result.is_error
    assert structured(result) == gm(["status", "--format", "json"], cwd=repo.root).json()


def test_registered_command_git_memory_mcp_serves(
    repo: Repo, gm: Any, bin_dir: Path, tmp_path: Path
) -> None:
    # Exactly what the registration snippets start: `git memory mcp`, through git.
    from mcp import StdioServerParameters

    base = server_parameters(repo.root)
    params = StdioServerParameters(
        command="git", args=["memory", "mcp"], env=base.env, cwd=str(repo.root)
    )
    assert params.env is not None
    assert str(bin_dir) in params.env["PATH"]
    assert gm(["status"], cwd=repo.root).exit_code == 0

    async def scenario() -> types.CallToolResult:
        async with stdio(params, tmp_path / "err.log") as client:
            return await client.call_tool("memory_status", {})

    result = anyio.run(scenario)
    assert structured(result) == gm(["status", "--format", "json"], cwd=repo.root).json()
