"""`memory_harvest` over the MCP stdio server stages what the CLI would, and a second call
offers nothing."""

from __future__ import annotations

from pathlib import Path

import anyio
from mcp import types

from tests.agent_memory.conftest import BUILDERS, Project, snapshot
from tests.mcp.harness import ALL_TOOLS, server_parameters, stdio, structured


def test_memory_harvest_over_stdio(project: Project, tmp_path: Path) -> None:
    location = BUILDERS["gemini-memories"][0](project)
    before = snapshot(location)

    async def scenario() -> tuple[types.CallToolResult, types.CallToolResult]:
        params = server_parameters(project.root, ALL_TOOLS)
        async with stdio(params, tmp_path / "err.log") as client:
            first = await client.call_tool("memory_harvest", {})
            second = await client.call_tool("memory_harvest", {"stores": ["gemini-memories"]})
            return first, second

    first, second = anyio.run(scenario)
    assert not first.is_error, first
    offered = structured(first)["offered"]
    assert [o["store"] for o in offered] == ["gemini-memories", "gemini-memories"]
    assert structured(second)["offered"] == []
    assert structured(second)["unchanged"] == 2
    _, review = project.gm("review")
    assert {i["candidateId"] for i in review["items"]} == {o["candidateId"] for o in offered}
    assert snapshot(location) == before
