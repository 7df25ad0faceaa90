"""The concepts every flow passes around carry their real types, never a bare `Any`."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "git_memory"

# Parameter names that always stand for one of the project's own types: the worktree, the
# store session, a stored record, a plan, a request model or the operation context.
TYPED_NAMES = {"worktree", "workspace", "session", "record", "plan", "request", "ctx", "context"}


def _is_bare_any(annotation: ast.expr | None) -> bool:
    """`Any`, `typing.Any` or `Any | None`."""
    if annotation is None:
        return False
    if isinstance(annotation, ast.Name):
        return annotation.id == "Any"
    if isinstance(annotation, ast.Attribute):
        return annotation.attr == "Any"
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        sides = (annotation.left, annotation.right)
        none = [s for s in sides if isinstance(s, ast.Constant) and s.value is None]
        return bool(none) and any(_is_bare_any(s) for s in sides if s not in none)
    return False


def untyped_parameters(source: str, rel: str) -> list[str]:
    """`rel:line name` of each parameter named like a project concept but annotated `Any`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        arguments = node.args
        for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
            if arg.arg in TYPED_NAMES and _is_bare_any(arg.annotation):
                found.append(f"{rel}:{arg.lineno} {node.name}({arg.arg})")
    return found


def test_no_bare_any_for_project_concepts() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        offenders += untyped_parameters(path.read_text(encoding="utf-8"), rel)
    assert offenders == []


def test_the_scan_finds_a_bare_any() -> None:
    source = (
        "from typing import Any\n"
        "def decide(ctx: Any, request: Any | None, plan: 'Plan', note: Any) -> None: ...\n"
        "class C:\n"
        "    async def run(self, *, workspace: Any) -> None: ...\n"
    )
    assert untyped_parameters(source, "probe.py") == [
        "probe.py:2 decide(ctx)",
        "probe.py:2 decide(request)",
        "probe.py:4 run(workspace)",
    ]
