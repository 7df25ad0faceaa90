"""Every `GM_*` code the package can raise is triggered by at least one test."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r'"(GM_[A-Z0-9_]*[A-Z0-9])"')


def _codes(directory: Path, skip: Path | None = None) -> set[str]:
    found: set[str] = set()
    for path in directory.rglob("*.py"):
        if path != skip:
            found |= set(CODE.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_error_code_has_a_test() -> None:
    raised = _codes(ROOT / "git_memory")
    tested = set()
    for path in (ROOT / "tests").rglob("*.py"):
        if path != Path(__file__).resolve():
            tested |= set(re.findall(r"GM_[A-Z0-9_]*[A-Z0-9]", path.read_text("utf-8")))
    assert sorted(raised - tested) == []
