"""Operations: the importable Python API shared by the CLI and the MCP server.

`run("status", request)` looks an operation up in the registry and calls it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from git_memory.ops.base import OpContext, Operation, load_operation

__all__ = ["OpContext", "Operation", "load_operation", "run"]


def run(name: str, request: Any = None, *, repository: Path | str | None = None) -> Any:
    """Run operation `name` with a request model (or a dict validated into one)."""
    operation = load_operation(name)
    return operation.invoke(OpContext(repository=repository), request)
