"""The tools `git memory mcp` lists: the everyday flow's within 8,000 bytes by default, every
tool with `--tools all` or `memory.mcpTools`, and what each one costs, as the docs say.

The server is the real process (`python -m git_memory mcp`), listed through the MCP SDK's
stdio client; the bytes are what a client shows the model of each tool.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import anyio
import pytest

from git_memory.mcp.handshake import (
    INSTRUCTIONS,
    INSTRUCTIONS_LIMIT,
    SELECT_QUERY,
    load_catalog,
)
from git_memory.mcp.surface import EVERYDAY_BUDGET, EVERYDAY_TOOLS, shown_bytes
from git_memory.ops.registry import OPERATIONS
from tests.conftest import PROJECT_ROOT
from tests.mcp.harness import server_parameters, stdio, structured
from tests.repos import Repo

REGISTRY_TOOLS = [name for spec in OPERATIONS for name in spec.mcp_tools]
GUIDE = PROJECT_ROOT / "docs" / "guide-agent.md"


def _listed(root: Path, errlog: Path, *args: str) -> list[dict[str, Any]]:
    async def scenario() -> list[dict[str, Any]]:
        async with stdio(server_parameters(root, args), errlog) as client:
            tools = (await client.list_tools()).tools
        return [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in tools]

    return anyio.run(scenario)


def test_by_default_the_everyday_tools_within_the_budget(repo: Repo, tmp_path: Path) -> None:
    tools = _listed(repo.root, tmp_path / "err.log")
    assert [tool["name"] for tool in tools] == [n for n in REGISTRY_TOOLS if n in EVERYDAY_TOOLS]
    assert set(EVERYDAY_TOOLS) <= set(REGISTRY_TOOLS)
    size = sum(shown_bytes(tool) for tool in tools)
    assert size <= EVERYDAY_BUDGET, f"the default tools show the model {size} bytes"


@pytest.mark.parametrize(
    ("config", "args", "expected"),
    [
        (None, ("--tools", "all"), "all"),
        ("all", (), "all"),
        ("everyday", ("--tools", "all"), "all"),
        ("all", ("--tools", "everyday"), "everyday"),
        ("all", ("--tools=everyday", "--repository", "."), "everyday"),
    ],
)
def test_every_tool_on_request_by_flag_or_config(
    config: str | None, args: tuple[str, ...], expected: str, repo: Repo, tmp_path: Path
) -> None:
    if config is not None:
        repo.git("config", "memory.mcpTools", config)
    names = [tool["name"] for tool in _listed(repo.root, tmp_path / "err.log", *args)]
    wanted = REGISTRY_TOOLS if expected == "all" else list(EVERYDAY_TOOLS)
    assert sorted(names) == sorted(wanted)


def test_an_unusable_config_value_is_reported_and_the_everyday_tools_served(
    repo: Repo, tmp_path: Path
) -> None:
    repo.git("config", "memory.mcpTools", "most")
    errlog = tmp_path / "err.log"
    names = [tool["name"] for tool in _listed(repo.root, errlog)]
    assert sorted(names) == sorted(EVERYDAY_TOOLS)
    logged = errlog.read_text()
    assert "GM_CONFIG_INVALID" in logged
    assert "memory.mcpTools" in logged


def test_a_tool_not_listed_says_how_to_list_it(repo: Repo, tmp_path: Path) -> None:
    async def scenario() -> Any:
        async with stdio(server_parameters(repo.root), tmp_path / "err.log") as client:
            return structured(await client.call_tool("memory_assemble", {}))

    refused = anyio.run(scenario)
    assert refused["code"] == "GM_MCP_UNKNOWN_TOOL"
    assert "--tools all" in refused["next"]


def test_the_guide_lists_each_tools_cost() -> None:
    catalog = load_catalog()
    assert catalog is not None
    measured = {tool["name"]: shown_bytes(tool) for tool in catalog["tools"]}
    rows = re.findall(r"^\| `(memory_\w+)` \| ([\d,]+) \| (yes|no) \|$", GUIDE.read_text(), re.M)
    documented = {name: int(size.replace(",", "")) for name, size, _ in rows}
    assert documented == measured, "update the table of docs/guide-agent.md"
    assert {name for name, _, default in rows if default == "yes"} == set(EVERYDAY_TOOLS)
    total = re.search(r"everyday tools together: ([\d,]+) bytes", GUIDE.read_text())
    assert total is not None
    assert int(total.group(1).replace(",", "")) == sum(measured[n] for n in EVERYDAY_TOOLS)
    every = re.search(r"([\d,]+) for all of them", GUIDE.read_text())
    assert every is not None
    assert int(every.group(1).replace(",", "")) == sum(measured.values())


def test_the_instructions_say_how_to_load_deferred_tools_and_fit_claude_code() -> None:
    # Claude Code cuts a server's instructions after 2,048 characters.
    assert len(INSTRUCTIONS) <= INSTRUCTIONS_LIMIT
    assert SELECT_QUERY in INSTRUCTIONS
    assert "select:" + ",".join(f"mcp__git-memory__{n}" for n in EVERYDAY_TOOLS) == SELECT_QUERY
    catalog = load_catalog()
    assert catalog is not None
    assert catalog["instructions"] == INSTRUCTIONS
