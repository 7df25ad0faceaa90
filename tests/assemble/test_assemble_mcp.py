"""`memory_assemble` over the MCP stdio server gives the CLI's document and the same files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
from mcp import types

from tests.mcp.harness import ALL_TOOLS, server_parameters, stdio, structured
from tests.repos import Repo


def test_memory_assemble_over_stdio(repo: Repo, gm: Any, tmp_path: Path) -> None:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    repo.write(".memory/doctrine.md", "- Keep it small.\n")
    repo.write("AGENTS.md", "# Agents\n")
    before = repo.snapshot()

    async def scenario() -> tuple[types.CallToolResult, types.CallToolResult, types.Tool]:
        async with stdio(server_parameters(repo.root, ALL_TOOLS), tmp_path / "err.log") as client:
            tools = (await client.list_tools()).tools
            dry = await client.call_tool("memory_assemble", {"provider": "codex", "dryRun": True})
            real = await client.call_tool("memory_assemble", {"provider": "codex"})
            return dry, real, next(t for t in tools if t.name == "memory_assemble")

    dry, real, tool = anyio.run(scenario)
    assert not dry.is_error
    assert "+- Keep it small." in structured(dry)["diff"]
    assert structured(real)["target"] == {"path": "AGENTS.md", "action": "appended"}
    assert (repo.root / "AGENTS.md").read_text().startswith("# Agents\n\n<!-- BEGIN GIT MEMORY")
    again = gm(["assemble", "--provider", "codex", "--format", "json"], cwd=repo.root)
    assert again.json()["changed"] is False
    assert tool.annotations is not None
    assert tool.annotations.idempotent_hint is True
    assert repo.snapshot() == before
