"""A recall's contracts and contexts travel once per MCP session, and tool results are compact
JSON (issue 41).

Through the real `git memory mcp` and the SDK client: the first recall of a session carries
the prompts, schemas, rules and contexts, a later one names their digest instead,
`withContracts` brings them back, and a new session (a new server process) has them again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from mcp import types

from tests.conftest import run_subprocess
from tests.extract.conftest import SINCE, UNTIL, build_sample_repo
from tests.mcp.harness import server_parameters, stdio, structured

RECALL = {"request": {"window": {"after": SINCE, "before": UNTIL}}}


async def _recall(client: Any, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    result = await client.call_tool("memory_recall", arguments)
    assert not result.is_error, result.content
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text, structured(result)


def test_contracts_once_per_session(tmp_path: Path, hermetic_env: dict[str, Path]) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    params = server_parameters(sample.root)

    async def session() -> list[tuple[str, dict[str, Any]]]:
        async with stdio(params, tmp_path / "err.log") as client:
            return [
                await _recall(client, RECALL),
                await _recall(client, RECALL),
                await _recall(client, {**RECALL, "withContracts": True}),
            ]

    (first_text, first), (_, second), (_, again) = anyio.run(session)
    # Compact JSON: no indentation, no space after separators, the same document.
    assert "\n" not in first_text
    assert first_text == json.dumps(first, ensure_ascii=False, separators=(",", ":"))
    contracts = first["contracts"]
    assert contracts["extraction"]["documentSchema"]["properties"]["candidates"]
    assert first["guidance"]["skillDocumentSchema"]["properties"]
    assert "handedEarlier" not in first
    assert first["memoryContext"]["bindingDigest"]
    assert "skillContext" in first

    assert [t["taskId"] for t in second["tasks"]] == [t["taskId"] for t in first["tasks"]]
    assert second["tasks"][0]["contract"]["sharedIn"] == "contracts.extraction"
    assert "contracts" not in second
    assert "skillDocumentSchema" not in second["guidance"]
    assert "rules" not in second["guidance"]
    assert first["guidance"]["rules"]
    assert "memoryContext" not in second
    assert "skillContext" not in second
    pointer = second["handedEarlier"]
    assert "withContracts" in pointer
    assert len(pointer.split(":")[0]) == 64  # the digest of what was handed out
    # A skill candidate names the memory context it was written against: the pointer has it.
    assert first["memoryContext"]["bindingDigest"] in pointer

    assert again["contracts"] == contracts
    assert again["guidance"] == first["guidance"]
    assert again["memoryContext"] == first["memoryContext"]

    # A new session is a new server process: it hands them out on its first recall.
    async def new_session() -> dict[str, Any]:
        async with stdio(params, tmp_path / "err.log") as client:
            return (await _recall(client, RECALL))[1]

    assert anyio.run(new_session)["contracts"] == contracts


def test_every_command_line_recall_prints_them(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    args = ["recall", "--since", SINCE, "--until", UNTIL, "--format", "json"]
    for _ in range(2):  # each run is a process of its own
        result = run_subprocess(args, cwd=sample.root)
        assert result.returncode == 0, result.stderr
        document = json.loads(result.stdout)
        assert document["contracts"]["extraction"]["documentSchema"]
        assert document["memoryContext"]["bindingDigest"]
        assert "handedEarlier" not in document
