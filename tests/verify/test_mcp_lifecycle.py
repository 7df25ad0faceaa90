"""verify and retire over the real `git memory mcp`; the human approves by elicitation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
from mcp import types

from git_memory.formats.entry import parse_entry
from tests.mcp.harness import ALL_TOOLS, answer, server_parameters, stdio, structured
from tests.repos import Repo
from tests.verify.helpers import STALE, rotting_project


def test_agent_verifies_then_retires_and_the_human_approves(repo: Repo, tmp_path: Path) -> None:
    rotting_project(repo)
    seen: list[types.ElicitRequestParams] = []
    params = server_parameters(repo.root, ALL_TOOLS)

    async def scenario() -> tuple[Any, Any, types.CallToolResult]:
        async with stdio(params, tmp_path / "err.log", elicit=answer("approve", seen)) as client:
            verified = structured(await client.call_tool("memory_verify", {}))
            stale = sorted(e["id"] for e in verified["entries"] if e["state"] == "stale")
            retire = {"ids": stale, "reason": "verify found them stale"}
            plan = structured(await client.call_tool("memory_retire", retire))
            promoted = await client.call_tool("memory_promote", {"plan": plan["planId"]})
            return verified, plan, promoted

    verified, plan, promoted = anyio.run(scenario)
    assert verified["counts"]["stale"] == len(STALE)
    assert not promoted.is_error, structured(promoted)
    assert structured(promoted)["approvedVia"] == "elicitation"
    assert len(seen) == 1
    assert plan["diff"].strip() in seen[0].message
    for entry_id in STALE:
        text = (repo.root / f".memory/entries/{entry_id}.md").read_text()
        assert parse_entry(text).status == "deprecated"
