"""The extract pipeline runs one way and on the one workspace its operation opened."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from git_memory.store import db
from tests.conftest import run_cli
from tests.extract.conftest import SINCE, UNTIL, build_sample_repo

PACKAGE = Path(__file__).resolve().parents[2] / "git_memory"
OPENERS = {"open_state", "open_workspace"}


def _opener_calls(root: Path) -> list[str]:
    """`file:line name` of every call to a workspace or state-DB opener below `root`."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in OPENERS:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {name}")
    return found


@pytest.mark.parametrize("package", ["extract", "runners"])
def test_nothing_below_ops_opens_a_workspace(package: str) -> None:
    assert _opener_calls(PACKAGE / package) == []


def test_one_extract_opens_the_state_db_once(
    tmp_path: Path, hermetic_env: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    opened: list[Path] = []
    real_init = db.StateDB.__init__

    def counting_init(self: db.StateDB, path: Path, **options: Any) -> None:
        opened.append(path)
        real_init(self, path, **options)

    monkeypatch.setattr(db.StateDB, "__init__", counting_init)
    result = run_cli(
        ["extract", "--runner", "builtin", "--since", SINCE, "--until", UNTIL, "--format", "json"],
        cwd=sample.root,
    )
    assert result.exit_code == 0, result.stderr + result.stdout
    assert result.json()["quarantined"]  # the run did its work on that one workspace
    assert len(opened) == 1
