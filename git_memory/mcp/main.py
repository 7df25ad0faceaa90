"""`git memory mcp`: own the stdio wire first, load the SDK server after.

This module and what it imports before the handshake stay light (no MCP SDK, no pydantic, no
pygit2, no click): the server answers `initialize` within a fraction of a second of being
spawned, and binds to its worktree while the client reads the tool list.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from git_memory import output
from git_memory.mcp.handshake import INSTRUCTIONS, load_catalog
from git_memory.mcp.wire import Wire
from git_memory.ops.registry import OPERATIONS, OperationSpec


def serve(repository: Path | str | None, operations: Iterable[OperationSpec] | None = None) -> int:
    """Serve MCP on stdin/stdout until the client closes the connection or a signal comes.

    The handshake is answered from the generated catalog while the SDK loads (see
    `mcp/wire.py`); operations other than the registry's (tests serve their own) are answered
    by the SDK alone.
    """
    wire = Wire(load_catalog() if operations is None else None, INSTRUCTIONS)
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
    memory = MemoryServer(binding, load_tools(chosen, strict=False), activity=wire.activity)
    anyio.run(serve_sdk, memory, wire)
    return 0


def serve_from_argv(arguments: tuple[str, ...]) -> int | None:
    """`git memory mcp [--repository PATH | -C PATH]` without loading the command tree.

    Returns None for anything else (`--help`, unknown options): the CLI then parses it.
    """
    if arguments == ():
        return serve(None)
    if len(arguments) == 2 and arguments[0] in ("--repository", "-C"):
        return serve(arguments[1])
    if len(arguments) == 1 and arguments[0].startswith("--repository="):
        return serve(arguments[0].removeprefix("--repository="))
    return None
