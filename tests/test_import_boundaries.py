"""Layering: one choke point per side effect, imports point downward."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "git_memory"

# module prefix allowed to import it
CHOKE_POINTS = {
    "pygit2": ("repo",),
    "sqlite3": ("store/db.py", "sessions/index.py"),
    "subprocess": ("_proc.py", "testing/"),
}

LAYERS = [
    {"cli", "mcp", "hooks_impl"},
    {"ops"},
    {"extract", "promote", "consolidate", "skills", "assemble", "runners"},
    {"sessions", "store", "repo"},
    {"formats", "lint", "contracts"},
]


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def _relative(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


@pytest.mark.parametrize("module", ["pygit2", "sqlite3", "subprocess"])
def test_choke_points(module: str) -> None:
    offenders = []
    for path in _modules():
        rel = _relative(path)
        imported = any(name == module or name.startswith(module + ".") for name in _imports(path))
        if imported and not rel.startswith(CHOKE_POINTS[module]):
            offenders.append(rel)
    assert offenders == [], f"{module} imported outside its choke point"


def _layer_of(rel: str) -> int | None:
    top = rel.split("/", 1)[0]
    for number, layer in enumerate(LAYERS):
        if top in layer:
            return number
    return None


def test_imports_point_downward() -> None:
    offenders = []
    for path in _modules():
        rel = _relative(path)
        own = _layer_of(rel)
        if own is None:
            continue
        for name in _imports(path):
            if not name.startswith("git_memory."):
                continue
            target = _layer_of(name.removeprefix("git_memory.").replace(".", "/"))
            if target is not None and target < own:
                offenders.append(f"{rel} -> {name}")
            if target == 0 and own == 0 and name.split(".")[1] != rel.split("/")[0]:
                offenders.append(f"{rel} -> {name} (front ends never import each other)")
    assert offenders == []


def test_only_output_writes_to_stdout() -> None:
    offenders = []
    for path in _modules():
        rel = _relative(path)
        if rel in ("output.py",) or rel.startswith("testing/"):
            continue
        text = path.read_text(encoding="utf-8")
        if "print(" in text or "sys.stdout.write" in text:
            offenders.append(rel)
    assert offenders == [], offenders
