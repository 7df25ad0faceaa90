"""One workspace per operation: only ops/ (and the layers above it) open one.

A workspace (worktree, binding, owner, state DB: store/session.py) is opened once by the
operation and passed down typed, so nothing below ops/ calls `open_workspace` or
`open_state`; the opener itself is the one place that opens the DB beneath it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_import_boundaries import LAYERS, PACKAGE

OPENERS = frozenset({"open_workspace", "open_state"})
# The workspace opener opens the DB it wraps.
OPENER_MODULE = "store/session.py"
OPS_LAYER = next(number for number, layer in enumerate(LAYERS) if "ops" in layer)


def _below_ops(rel: str) -> bool:
    package = rel.split("/", 1)[0].removesuffix(".py")
    return any(package in layer for layer in LAYERS[OPS_LAYER + 1 :])


def opener_calls(source: str) -> list[int]:
    """Line numbers of calls to `open_workspace` / `open_state` (by name or attribute)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name in OPENERS:
            lines.append(node.lineno)
    return lines


def offenders(package: Path = PACKAGE) -> list[str]:
    """`file:line` of every opener call below ops/."""
    found = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).as_posix()
        if rel == OPENER_MODULE or not _below_ops(rel):
            continue
        found += [f"{rel}:{line}" for line in opener_calls(path.read_text(encoding="utf-8"))]
    return found


def test_nothing_below_ops_opens_a_workspace() -> None:
    assert offenders() == []


def test_the_check_finds_an_opener_called_below_ops(tmp_path: Path) -> None:
    package = tmp_path / "git_memory"
    sources = {
        "promote/flow.py": "from git_memory.store import session\n\n"
        "def run(w):\n    with session.open_workspace(w) as ws:\n        return ws\n",
        "verify/other.py": "from git_memory.store.db import open_state\n\n"
        "def count(home):\n    return open_state(home)\n",
        "ops/run.py": "from git_memory.store.session import open_workspace\n\n"
        "def handler(ctx):\n    return open_workspace(ctx.worktree)\n",
        "store/session.py": "def open_workspace(w):\n    return open_state(w.state_home)\n",
        "extract/plain.py": "def open_workspace_later():\n    return None\n",
    }
    for rel, source in sources.items():
        path = package / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    assert offenders(package) == ["promote/flow.py:4", "verify/other.py:4"]
