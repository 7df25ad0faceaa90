"""The recorded freshness answer of assembled context: reused only while nothing changed."""

from __future__ import annotations

from typing import Any

import pytest

from git_memory.formats.entry import parse_entry
from git_memory.repo.binding import discover_worktree
from git_memory.store.session import open_workspace
from git_memory.verify import check, recorded
from tests.repos import Repo
from tests.verify.helpers import STALE, rotting_project


@pytest.fixture
def rotted(repo: Repo) -> Repo:
    rotting_project(repo)
    return repo


def _stale(repo: Repo) -> frozenset[str]:
    with open_workspace(discover_worktree(repo.root)) as workspace:
        return recorded.context_stale_ids(workspace)


def _no_checking(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("checked again although nothing changed")

    monkeypatch.setattr(check, "verify_memory", refuse)


def test_an_unchanged_worktree_is_answered_from_the_record(
    rotted: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _stale(rotted) == STALE
    _no_checking(monkeypatch)
    assert _stale(rotted) == STALE


@pytest.mark.parametrize(
    "change",
    ["makefile", "package-json", "cited-path", "head", "entry", "corrupt-record"],
)
def test_any_change_a_verdict_depends_on_checks_again(
    rotted: Repo, hermetic_env: dict[str, Any], change: str
) -> None:
    assert _stale(rotted) == STALE
    expected = set(STALE)
    if change == "makefile":
        rotted.write("Makefile", "test:\n\tpytest\n\ndeploy:\n\tdeploy\n")
        expected.discard("deploy-with-make")
    elif change == "package-json":
        rotted.write("package.json", '{"scripts": {"storybook": "sb"}}\n')
        expected = (expected - {"storybook"}) | {"lint-with-npm"}
    elif change == "cited-path":
        (rotted.root / "src/app.py").unlink()
        expected.add("app-entry-point")
    elif change == "head":
        # The experiment that was rebased away is merged after all: its commit is reachable.
        cited = parse_entry((rotted.root / ".memory/entries/experiment-result.md").read_text())
        rotted.git("merge", "-q", "--no-edit", cited.evidence.commits[0].hash)
        expected.discard("experiment-result")
    elif change == "entry":
        (rotted.root / ".memory/entries/storybook.md").unlink()
        expected.discard("storybook")
    else:
        for record in (hermetic_env["state"] / "artifacts" / "freshness").iterdir():
            record.write_text("{not json")
    assert _stale(rotted) == expected
