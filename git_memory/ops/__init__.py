"""Operations: the importable Python API shared by the CLI and the MCP server.

`run("status", request)` looks an operation up in the registry and calls it.
"""

from __future__ import annotations

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of
# `git memory -h` (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from git_memory.ops.base import OpContext, Operation, load_operation

__all__ = ["OpContext", "Operation", "load_operation", "run"]


def __getattr__(name: str) -> Any:
    # Start-up seam (docs/architecture.md): `git memory -h` imports this package for its
    # registry; ops.base (and what it imports) loads on first use.
    if name in ("OpContext", "Operation", "load_operation"):
        from git_memory.ops import base  # noqa: PLC0415

        return getattr(base, name)
    raise AttributeError(name)


def run(name: str, request: object = None, *, repository: Path | str | None = None) -> Any:
    """Run operation `name` with a request model (or a dict validated into one)."""
    from git_memory.ops.base import OpContext, load_operation  # noqa: PLC0415

    operation = load_operation(name)
    return operation.invoke(OpContext(repository=repository), request)
