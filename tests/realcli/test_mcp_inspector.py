"""`git memory mcp` through the MCP Inspector CLI (the TypeScript SDK's client).

The TypeScript SDK validates a result's structured content against the tool's output schema
and fails the call with `-32602 Structured content does not match the tool's output schema`
when it does not; error results that carried `{code, problem, next}` as structured content
failed exactly so. Every result here, successes and errors, must come through.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from git_memory.mcp.handshake import load_catalog
from tests.repos import Repo

TIMEOUT = 60
# Inspector 2 exits with this status after printing a result whose `isError` is true (1.x
# with 0).
TOOL_ERROR_EXIT = 5

# (tool, arguments, the error code it answers or None for a success)
CALLS = [
    ("memory_status", (), None),
    ("memory_review", (), None),
    ("memory_sessions_list", (), None),
    ("memory_search", ("query=pytest",), None),
    ("memory_lint", (), None),
    ("memory_promote", ("plan=no-such-plan",), "GM_PLAN_NOT_FOUND"),
    ("memory_stage_drafts", ("taskId=no-such-task",), "GM_REQUEST_INVALID"),
    (
        "memory_stage_adjudication",
        ("format=git-memory-candidate-draft-batch@v1",),
        "GM_REQUEST_INVALID",
    ),
]


def _inspector(cwd: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    # Every tool, not only the everyday ones the server lists by default.
    return subprocess.run(
        ["mcp-inspector", "--cli", "git", "memory", "mcp", "--tools", "all", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


@pytest.mark.realcli("mcp-inspector")
def test_inspector_lists_every_tool(repo: Repo, entry_bin: Path) -> None:
    listed = _inspector(repo.root, "--method", "tools/list")
    assert listed.returncode == 0, listed.stderr + listed.stdout
    catalog = load_catalog()
    assert catalog is not None
    names = [tool["name"] for tool in json.loads(listed.stdout)["tools"]]
    assert names == [tool["name"] for tool in catalog["tools"]]


@pytest.mark.realcli("mcp-inspector")
@pytest.mark.parametrize(("tool", "arguments", "code"), CALLS, ids=[c[0] for c in CALLS])
def test_inspector_accepts_every_result(
    tool: str, arguments: tuple[str, ...], code: str | None, repo: Repo, entry_bin: Path
) -> None:
    words = [word for argument in arguments for word in ("--tool-arg", argument)]
    called = _inspector(repo.root, "--method", "tools/call", "--tool-name", tool, *words)
    output = called.stderr + called.stdout
    assert "does not match the tool's output schema" not in output, output
    if code is not None and called.returncode == TOOL_ERROR_EXIT:
        assert "tool_is_error" in called.stderr, output
    else:
        assert called.returncode == 0, output
    result = json.loads(called.stdout)
    document = json.loads(result["content"][0]["text"])
    assert bool(result.get("isError")) is (code is not None), result
    if code is not None:
        assert "structuredContent" not in result
        assert document["code"] == code
        assert {"problem", "next"} <= set(document)
    else:
        assert result["structuredContent"] == document
