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

from git_memory.mcp.handshake import CATALOG_PATH, Binding
from git_memory.mcp.server import MemoryServer
from git_memory.mcp.tools import load_tools


def build_catalog() -> dict[str, Any]:
    """The catalog document: what the SDK server itself writes for the handshake."""
    latest = version.LATEST_HANDSHAKE_VERSION
    initialize, listed = anyio.run(_handshake, latest)
    del initialize["protocolVersion"]
    instructions = initialize.pop("instructions")
    return {
        "protocolVersions": list(version.HANDSHAKE_PROTOCOL_VERSIONS),
        "latestProtocolVersion": latest,
        "initialize": initialize,
        "instructions": instructions,
        "tools": listed["tools"],
    }


async def _handshake(protocol_version: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run `initialize` and `tools/list` through the SDK's stdio transport, in process."""
    answers: list[dict[str, Any]] = []
    params = {
        "protocolVersion": protocol_version,
        "capabilities": {},
        "clientInfo": {"name": "git-memory-catalog", "version": "1"},
    }
    requests = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    ]

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
