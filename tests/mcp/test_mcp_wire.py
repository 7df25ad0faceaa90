"""What agent clients need from the server process: small tools, a fast handshake that is the
SDK's own, and a clean exit on end of input and on signals.

The process is real (`python -m git_memory mcp`, spoken to in raw JSON-RPC lines), so the
timing and the shutdown are the ones a client sees.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from git_memory.mcp.catalog import render_catalog
from git_memory.mcp.handshake import (
    CATALOG_PATH,
    PROTOCOL_VERSION_KEY,
    load_catalog,
    modern_result,
)
from git_memory.mcp.main import serve_from_argv
from git_memory.mcp.server import MemoryServer
from git_memory.mcp.surface import EVERYDAY_TOOLS
from git_memory.ops.registry import OPERATIONS
from tests.conftest import PROJECT_ROOT
from tests.mcp.harness import connect
from tests.repos import Repo
from tests.waiting import HANG_CEILING

REGISTRY_TOOLS = [name for spec in OPERATIONS for name in spec.mcp_tools]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "tests", "version": "1"},
    },
}


class Process:
    """`python -m git_memory mcp` with raw JSON-RPC lines on its stdin and stdout."""

    def __init__(self, cwd: Path, argv: tuple[str, ...] = ("-m", "git_memory", "mcp")) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(PROJECT_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        self.popen = subprocess.Popen(
            [sys.executable, *argv],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def send(self, message: dict[str, Any]) -> None:
        assert self.popen.stdin is not None
        self.popen.stdin.write((json.dumps(message) + "\n").encode())
        self.popen.stdin.flush()

    def receive(self) -> dict[str, Any]:
        assert self.popen.stdout is not None
        line = self.popen.stdout.readline()
        assert line, "the server closed its output"
        message: dict[str, Any] = json.loads(line)
        return message

    def call(self, number: int, method: str, params: dict[str, Any] | None = None) -> Any:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": number, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        answer = self.receive()
        assert answer["id"] == number, answer
        return answer["result"]

    def handshake(self) -> tuple[Any, Any]:
        self.send(INITIALIZE)
        initialized = self.receive()["result"]
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return initialized, self.call(1, "tools/list")

    def stop(self, how: str) -> str:
        """End it by `eof`, `SIGINT` or `SIGTERM` and wait until it exits by itself; its
        stderr. A server that does not exit is a hang (and is killed before the test fails)."""
        assert self.popen.stdin is not None
        if how == "eof":
            self.popen.stdin.close()
        else:
            self.popen.send_signal(getattr(signal, how))
        try:
            self.popen.wait(HANG_CEILING)
        finally:
            if self.popen.poll() is None:
                self.popen.kill()
        assert self.popen.stderr is not None
        return self.popen.stderr.read().decode(errors="replace")


def _sdk_answers(root: Path) -> tuple[Any, list[dict[str, Any]]]:
    async def scenario() -> tuple[Any, list[dict[str, Any]]]:
        async with connect(MemoryServer.create(root).lowlevel()) as client:
            tools = (await client.list_tools()).tools
            dumped = [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in tools]
            assert client.server_info is not None
            initialized = {
                "capabilities": client.server_capabilities.model_dump(
                    by_alias=True, mode="json", exclude_none=True
                ),
                "serverInfo": client.server_info.model_dump(
                    by_alias=True, mode="json", exclude_none=True
                ),
                "instructions": client.instructions,
            }
            return initialized, dumped

    return anyio.run(scenario)


def test_catalog_is_current() -> None:
    shipped = CATALOG_PATH.read_text(encoding="utf-8")
    assert shipped == render_catalog(), "run: python -m git_memory.mcp.catalog"


def test_tool_definitions_suit_every_client(repo: Repo) -> None:
    # Every tool, listed or not by default (their bytes: tests/mcp/test_tool_surface.py).
    _, tools = _sdk_answers(repo.root)
    for tool in tools:
        schema = tool["inputSchema"]
        # Claude Code drops a tool with a top-level union; Codex empties references.
        assert schema["type"] == "object", tool["name"]
        assert not {"oneOf", "anyOf", "allOf", "$defs"} & set(schema), tool["name"]
        assert "$ref" not in json.dumps(schema), tool["name"]
        for name, field in schema["properties"].items():
            assert "type" in field, (tool["name"], name)


# The same server with the registry's operations passed explicitly: no catalog, the SDK
# answers the handshake itself.
SDK_ONLY = (
    "-c",
    "import sys; from git_memory.mcp.main import serve; "
    "from git_memory.ops.registry import OPERATIONS; sys.exit(serve(None, OPERATIONS))",
)


def test_early_handshake_is_the_sdk_answer_and_the_sdk_takes_over(repo: Repo) -> None:
    sdk = Process(repo.root, SDK_ONLY)
    try:
        sdk_initialized, sdk_listed = sdk.handshake()
    finally:
        sdk.stop("eof")
    process = Process(repo.root)
    try:
        initialized, listed = process.handshake()
        # After the handover the SDK answers; the replayed initialize left no trace.
        status = process.call(2, "tools/call", {"name": "memory_status", "arguments": {}})
        again = process.call(3, "tools/list")
    finally:
        process.stop("eof")
    assert initialized == sdk_initialized
    assert listed == sdk_listed
    assert again == sdk_listed
    assert status["structuredContent"]["format"] == "git-memory-status@v1"


def test_a_request_sent_before_end_of_input_is_still_answered(repo: Repo) -> None:
    process = Process(repo.root)
    process.handshake()
    process.send(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "memory_status", "arguments": {}},
        }
    )
    assert process.popen.stdin is not None
    process.popen.stdin.close()
    answer = process.receive()
    assert answer["id"] == 2
    assert answer["result"]["structuredContent"]["format"] == "git-memory-status@v1"
    assert process.popen.wait(HANG_CEILING) == 0


@pytest.mark.parametrize("how", ["eof", "SIGINT", "SIGTERM"])
@pytest.mark.parametrize("when", ["loading", "serving"])
def test_exits_by_itself_without_traceback(when: str, how: str, repo: Repo) -> None:
    process = Process(repo.root)
    process.handshake()
    if when == "serving":
        status = process.call(2, "tools/call", {"name": "memory_status", "arguments": {}})
        assert not status.get("isError")
    stderr = process.stop(how)
    assert "Traceback" not in stderr, stderr
    assert "KeyboardInterrupt" not in stderr, stderr


def test_mcp_argv_fast_path_leaves_the_rest_to_the_cli() -> None:
    # Only the forms it can parse exactly; `--help` and unknown options go to click.
    assert serve_from_argv(("--help",)) is None
    assert serve_from_argv(("--repository",)) is None
    assert serve_from_argv(("-C", "a", "extra")) is None


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_a_signal_during_a_tool_call_still_ends_the_server(how: str, repo: Repo) -> None:
    process = Process(repo.root)
    process.handshake()
    window = {"after": "2026-11-01T00:00:00.000Z", "before": "2026-12-01T00:00:00.000Z"}
    process.send(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "memory_recall", "arguments": {"request": {"window": window}}},
        }
    )
    time.sleep(0.3)
    stderr = process.stop(how)
    assert "Traceback" not in stderr, stderr


def test_the_handshake_path_imports_nothing_heavy() -> None:
    # What runs before `initialize` is answered: the console script's entry, the wire and the
    # catalog. The SDK, pydantic, pygit2 and click load only after.
    code = (
        "import sys\n"
        "import git_memory.cli.entry, git_memory.mcp.main, git_memory.mcp.wire\n"
        "from git_memory.mcp.handshake import load_catalog\n"
        "assert load_catalog() is not None\n"
        "heavy = {'mcp', 'mcp_types', 'pydantic', 'pygit2', 'click', 'anyio'} & set(sys.modules)\n"
        "print(sorted(heavy))\n"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = str(PROJECT_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


# The per-request envelope of the 2026 protocol era, as Claude Code 2.1.332 sends it.
ENVELOPE = {
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "tests", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
    }
}
# The wire alone, with the catalog of the default tools: the SDK never loads (and the process
# ends after a minute, so a wire that does not answer fails the test instead of hanging it).
WIRE_ONLY = (
    "-c",
    "import time; from git_memory.mcp.handshake import INSTRUCTIONS, load_catalog; "
    "from git_memory.mcp.main import _listed_catalog; from git_memory.mcp.wire import Wire; "
    "Wire(_listed_catalog(load_catalog(), 'everyday'), INSTRUCTIONS).start(); time.sleep(60)",
)


def _modern_opening(process: Process) -> tuple[Any, Any]:
    """`server/discover`, then `tools/list`, each with its envelope (no handshake)."""
    return process.call(0, "server/discover", ENVELOPE), process.call(1, "tools/list", ENVELOPE)


def test_the_2026_opening_is_answered_before_the_sdk_loads_as_the_sdk_answers(
    repo: Repo,
) -> None:
    sdk = Process(repo.root, SDK_ONLY)
    try:
        sdk_discovered, sdk_listed = _modern_opening(sdk)
    finally:
        sdk.stop("eof")
    wire = Process(repo.root, WIRE_ONLY)
    try:
        discovered, listed = _modern_opening(wire)
    finally:
        wire.stop("SIGTERM")
    assert discovered == sdk_discovered
    assert listed == sdk_listed
    assert discovered["supportedVersions"] == ["2026-07-28"]


def test_after_an_early_2026_opening_the_sdk_serves_the_session(repo: Repo) -> None:
    process = Process(repo.root)
    try:
        _modern_opening(process)
        call = {"name": "memory_status", "arguments": {}, **ENVELOPE}
        status = process.call(2, "tools/call", call)
        again = process.call(3, "tools/list", ENVELOPE)
    finally:
        process.stop("eof")
    assert status["structuredContent"]["format"] == "git-memory-status@v1"
    assert [tool["name"] for tool in again["tools"]] == [
        name for name in REGISTRY_TOOLS if name in EVERYDAY_TOOLS
    ]


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("server/discover", {"_meta": {**ENVELOPE["_meta"], PROTOCOL_VERSION_KEY: "2099-01-01"}}),
        ("server/discover", {"_meta": {PROTOCOL_VERSION_KEY: "2026-07-28"}}),
        ("server/discover", {}),
        ("tools/list", {**ENVELOPE, "cursor": "x"}),
        ("tools/call", {**ENVELOPE, "name": "memory_status"}),
    ],
)
def test_an_unusual_2026_request_is_left_to_the_sdk(method: str, params: Any) -> None:
    catalog = load_catalog()
    assert catalog is not None
    message = {"jsonrpc": "2.0", "id": 0, "method": method, "params": params}
    assert modern_result(catalog, message, "instructions") is None
