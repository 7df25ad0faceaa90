"""Generate `mcp/catalog.json`: the `initialize` result and `tools/list` the server answers first.

Run `python -m git_memory.mcp.catalog` after changing an operation's MCP tool (its request or
response model, its docstring, the registry); `tests/mcp/test_mcp_catalog.py` fails until the
shipped file equals what the SDK server answers.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from git_memory.mcp.handshake import CATALOG_PATH, INSTRUCTIONS


def build_catalog() -> dict[str, Any]:
    """The catalog document, built by the SDK server itself from the registry."""
    import mcp_types as types
    from mcp_types import version

    from git_memory.mcp.handshake import Binding
    from git_memory.mcp.server import MemoryServer
    from git_memory.mcp.tools import load_tools

    memory = MemoryServer(Binding(None), load_tools())
    server = memory.lowlevel()
    options = server.create_initialization_options()
    result = types.InitializeResult(
        protocol_version=version.LATEST_HANDSHAKE_VERSION,
        capabilities=options.capabilities,
        server_info=types.Implementation(
            name=options.server_name,
            title=options.title,
            description=options.description,
            version=options.server_version,
            website_url=options.website_url,
            icons=options.icons,
        ),
    )
    initialize = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    del initialize["protocolVersion"]
    return {
        "protocolVersions": list(version.HANDSHAKE_PROTOCOL_VERSIONS),
        "latestProtocolVersion": version.LATEST_HANDSHAKE_VERSION,
        "initialize": initialize,
        "instructions": INSTRUCTIONS,
        "tools": [memory.tool_document(name) for name in memory.tools],
    }


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
