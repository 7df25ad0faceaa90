"""Generate `mcp/catalog.json`: the `initialize` result and `tools/list` the server answers first.

Run `python -m git_memory.mcp.catalog` after changing an operation's MCP tool (its request or
response model, its docstring, the registry); `tests/mcp/test_mcp_catalog.py` fails until the
shipped file equals what the SDK server answers.
"""

from __future__ import annotations

import json
import sys
from typing import Any, cast

import anyio
from mcp.server.stdio import stdio_server
from mcp_types import version

from git_memory.mcp.handshake import (
    CATALOG_PATH,
    CLIENT_CAPABILITIES_KEY,
    PROTOCOL_VERSION_KEY,
    Binding,
)
from git_memory.mcp.server import MemoryServer
from git_memory.mcp.tools import load_tools

CLIENT_INFO = {"name": "git-memory-catalog", "version": "1"}


def build_catalog() -> dict[str, Any]:
    """The catalog document: what the SDK server itself writes for the handshake, in the
    handshake era (`initialize`) and in the per-request-envelope era (`server/discover`)."""
    latest = version.LATEST_HANDSHAKE_VERSION
    initialize, listed = anyio.run(_exchange, _handshake_requests(latest))
    del initialize["protocolVersion"]
    instructions = initialize.pop("instructions")
    modern = version.LATEST_MODERN_VERSION
    discover, modern_listed = anyio.run(_exchange, _modern_requests(modern))
    del discover["instructions"]
    del modern_listed["tools"]
    return {
        "protocolVersions": list(version.HANDSHAKE_PROTOCOL_VERSIONS),
        "latestProtocolVersion": latest,
        "initialize": initialize,
        "instructions": instructions,
        "tools": listed["tools"],
        "modern": {"protocolVersion": modern, "discover": discover, "toolsList": modern_listed},
    }


def _handshake_requests(protocol_version: str) -> list[dict[str, Any]]:
    """`initialize` and `tools/list` as a handshake-era client sends them."""
    params = {"protocolVersion": protocol_version, "capabilities": {}, "clientInfo": CLIENT_INFO}
    return [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    ]


def _modern_requests(protocol_version: str) -> list[dict[str, Any]]:
    """`server/discover` and `tools/list`, each with its per-request envelope."""
    meta = {PROTOCOL_VERSION_KEY: protocol_version, CLIENT_CAPABILITIES_KEY: {}}
    return [
        {"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {"_meta": meta}},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}},
    ]


async def _exchange(requests: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The results of requests 0 and 1 through the SDK's stdio transport, in process."""
    answers: list[dict[str, Any]] = []

    class Collect:
        async def write(self, text: str) -> None:
            answers.append(json.loads(text))

        async def flush(self) -> None:
            pass

    async def lines() -> Any:
        for request in requests:
            yield json.dumps(request)
        while len(answers) < 2:
            await anyio.sleep(0.01)

    memory = MemoryServer(Binding(None), load_tools())
    server = memory.lowlevel()
    transport = stdio_server(stdin=cast(Any, lines()), stdout=cast(Any, Collect()))
    async with transport as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
    by_id = {answer["id"]: answer["result"] for answer in answers}
    return by_id[0], by_id[1]


def render_catalog() -> str:
    """The catalog as the file holds it."""
    return json.dumps(build_catalog(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main() -> None:
    """Write the catalog next to this module (or `--check` it)."""
    text = render_catalog()
    if "--check" in sys.argv[1:]:
        current = CATALOG_PATH.read_text(encoding="utf-8") if CATALOG_PATH.exists() else ""
        raise SystemExit(0 if current == text else f"{CATALOG_PATH} is stale")
    CATALOG_PATH.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
