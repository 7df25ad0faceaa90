"""`git memory mcp`: own the stdio wire first, load the SDK server after.

This module and what it imports before the handshake stay light (no MCP SDK, no pydantic, no
pygit2, no click): the server answers `initialize` within a fraction of a second of being
spawned, and binds to its worktree while the client reads the tool list.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from git_memory import output
from git_memory.errors import GitMemoryError
from git_memory.mcp.handshake import INSTRUCTIONS, load_catalog
from git_memory.mcp.surface import EVERYDAY, SURFACES, configured_surface, listed
from git_memory.mcp.wire import Wire
from git_memory.ops.registry import OPERATIONS, OperationSpec


def serve(
    repository: Path | str | None,
    operations: Iterable[OperationSpec] | None = None,
    *,
    tools: str | None = None,
) -> int:
    """Serve MCP on stdin/stdout until the client closes the connection or a signal comes.

    `tools` is the surface listed (`everyday` or `all`; default: `memory.mcpTools`, else
    everyday, see `mcp/surface.py`). The handshake is answered from the generated catalog
    while the SDK loads (see `mcp/wire.py`); operations other than the registry's (tests serve
    their own) are answered by the SDK alone.
    """
    surface = tools if tools is not None else _configured(repository)
    catalog = load_catalog() if operations is None else None
    wire = Wire(None if catalog is None else _listed_catalog(catalog, surface), INSTRUCTIONS)
    wire.start()

    # Start-up seam (docs/architecture.md): the SDK, pygit2 and every operation load while
    # the wire answers the handshake.
    import anyio  # noqa: PLC0415

    from git_memory.mcp.server import MemoryServer, bind, serve_sdk  # noqa: PLC0415
    from git_memory.mcp.tools import load_tools  # noqa: PLC0415

    binding = bind(repository)
    if binding.error is not None:
        error = binding.error
        output.print_error(error.code, error.message, error.hint)
    chosen = OPERATIONS if operations is None else tuple(operations)
    # Only the operations of listed tools are imported (fewer modules to load at start).
    serving = [spec for spec in chosen if listed(surface, list(spec.mcp_tools))]
    loaded = load_tools(serving, strict=False)
    served = {name: loaded[name] for name in listed(surface, list(loaded))}
    memory = MemoryServer(binding, served, activity=wire.activity)
    anyio.run(serve_sdk, memory, wire)
    return 0


def _configured(repository: Path | str | None) -> str:
    """`memory.mcpTools` for the worktree; an unusable value is reported and the everyday
    tools are served (the server still starts: a client shows no stderr)."""
    try:
        return configured_surface(repository)
    except GitMemoryError as error:
        output.print_error(error.code, error.message, error.hint)
        return EVERYDAY


def _listed_catalog(catalog: dict[str, Any], surface: str) -> dict[str, Any]:
    """The catalog with only the tools `surface` lists."""
    names = listed(surface, [tool["name"] for tool in catalog["tools"]])
    return {**catalog, "tools": [tool for tool in catalog["tools"] if tool["name"] in names]}


def serve_from_argv(arguments: tuple[str, ...]) -> int | None:
    """`git memory mcp [--repository PATH | -C PATH] [--tools everyday|all]` without loading
    the command tree.

    Returns None for anything else (`--help`, unknown options, an unknown surface): the CLI
    then parses it.
    """
    options: dict[str, str] = {}
    rest = list(arguments)
    while rest:
        option = rest.pop(0)
        name, equals, value = option.partition("=")
        key = {"--repository": "repository", "-C": "repository", "--tools": "tools"}.get(name)
        if key is None or key in options or (equals and name == "-C"):
            return None
        if not equals:
            if not rest:
                return None
            value = rest.pop(0)
        options[key] = value
    surface = options.get("tools")
    if surface is not None and surface not in SURFACES:
        return None
    return serve(options.get("repository"), tools=surface)
