"""Requests nested beyond the cap are answered with a JSON-RPC error and never stop the
server; end of input still ends it (issue 27, item 13). Raw framed lines and the SDK's stdio
client, against the real `git memory mcp` process."""

from __future__ import annotations

import select
from pathlib import Path
from typing import Any

import anyio
import pytest

from git_memory.mcp.wire import top_level_id
from tests.mcp.harness import server_parameters, stdio, structured
from tests.mcp.test_mcp_wire import Process
from tests.repos import Repo
from tests.waiting import HANG_CEILING


def _nested(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = [value]
    return value


def _raw_request(number: int, depth: int) -> bytes:
    """A tools/call line whose arguments nest `depth` deep (written by hand: json.dumps
    itself refuses such depths)."""
    head = f'{{"jsonrpc": "2.0", "id": {number}, "method": "tools/call", "params": '
    args = '{"name": "memory_status", "arguments": {"x": ' + "[" * depth + "]" * depth + "}}}"
    return (head + args + "\n").encode()


def _answer(process: Process, seconds: float = 15) -> dict[str, Any]:
    """The next message, which must come within `seconds` (a missing reply fails, not hangs)."""
    assert process.popen.stdout is not None
    ready, _, _ = select.select([process.popen.stdout], [], [], seconds)
    assert ready, f"no reply within {seconds} s"
    return process.receive()


def _status_answered(process: Process, number: int) -> None:
    result = process.call(number, "tools/call", {"name": "memory_status", "arguments": {}})
    assert result["structuredContent"]["format"] == "git-memory-status@v1"


@pytest.mark.parametrize("depth", [500, 2_000, 100_000])
def test_a_deep_request_gets_an_error_reply_and_the_server_keeps_serving(
    repo: Repo, depth: int
) -> None:
    process = Process(repo.root)
    try:
        process.handshake()
        assert process.popen.stdin is not None
        process.popen.stdin.write(_raw_request(7, depth))
        process.popen.stdin.flush()
        answer = _answer(process)
        assert answer["id"] == 7
        assert answer["error"]["code"] == -32600
        assert "GM_REQUEST_INVALID" in answer["error"]["message"]
        assert "nested deeper" in answer["error"]["message"]
        _status_answered(process, 8)
    finally:
        stderr = process.stop("eof")
    assert process.popen.returncode == 0
    assert "Traceback" not in stderr, stderr


def test_deep_lines_before_the_handshake_and_without_an_id_are_answered(repo: Repo) -> None:
    process = Process(repo.root)
    try:
        assert process.popen.stdin is not None
        process.popen.stdin.write(b"[" * 3_000 + b"\n")
        process.popen.stdin.flush()
        answer = _answer(process)
        assert answer["id"] is None
        assert answer["error"]["code"] == -32600
        process.handshake()
        _status_answered(process, 2)
    finally:
        process.stop("eof")


def test_end_of_input_right_after_a_deep_request_still_exits(repo: Repo) -> None:
    process = Process(repo.root)
    process.handshake()
    assert process.popen.stdin is not None
    process.popen.stdin.write(_raw_request(3, 5_000))
    process.popen.stdin.close()
    assert process.popen.wait(HANG_CEILING) == 0


def test_the_sdk_client_gets_an_error_for_a_deep_call_and_goes_on(
    repo: Repo, tmp_path: Path
) -> None:
    async def scenario() -> tuple[str, Any]:
        async with stdio(server_parameters(repo.root), tmp_path / "err.log") as client:
            try:
                with anyio.fail_after(30):
                    await client.call_tool("memory_status", {"x": _nested(100)})
            except Exception as exc:  # the SDK raises its error type for a JSON-RPC error
                refused = str(exc)
            else:
                refused = ""
            with anyio.fail_after(30):
                return refused, structured(await client.call_tool("memory_status", {}))

    refused, status = anyio.run(scenario)
    assert "GM_REQUEST_INVALID" in refused
    assert "nested deeper" in refused
    assert status["format"] == "git-memory-status@v1"


@pytest.mark.parametrize(
    ("line", "found"),
    [
        (b'{"jsonrpc": "2.0", "id": 12, "params": [[[[', 12),
        (b'{"id": "abc", "x": 1}', "abc"),
        (b'{"params": {"id": 5}, "method": "x"}', None),
        (b'{"method": "x", "params": [], "id": null}', None),
        (b"[[[[[[", None),
        (b'{"params": "id", "id": -3}', -3),
    ],
)
def test_the_id_of_an_unparsed_line_is_found_at_its_top_level_only(line: bytes, found: Any) -> None:
    assert top_level_id(line) == found
