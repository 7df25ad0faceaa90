"""Verify reads where each command of a snippet runs from the command model (issues 39, 48)."""

from __future__ import annotations

import pytest

from git_memory.verify.commands import snippet_requirements


@pytest.mark.parametrize(
    ("snippet", "expected"),
    [
        ("cd web && npm run lint", [("package-script", "lint", "web")]),
        ("(cd web && npm test) && make check", [
            ("package-script", "test", "web"),
            ("make-target", "check", ""),
        ]),
        ("bash -lc 'cd api && make test'", [("make-target", "test", "api")]),
        ("cd api; timeout 60 make test 2>&1 | tee log", [("make-target", "test", "api")]),
        ("sudo -E make install", [("make-target", "install", "")]),
        ("if [ -f x ]; then make test; fi", [("make-target", "test", "")]),
        ("cd $ROOT && make test", []),
        ("cd .. && make test", []),
    ],
)  # fmt: skip
def test_each_command_is_checked_where_it_runs(
    snippet: str, expected: list[tuple[str, str, str]]
) -> None:
    found = [(r.kind, r.name, r.directory) for r in snippet_requirements(snippet)]
    assert found == expected
