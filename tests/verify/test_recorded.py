"""The recorded freshness answer of assembled context: reused only while nothing changed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from git_memory.formats.entry import parse_entry
from git_memory.repo.binding import discover_worktree
from git_memory.store.session import open_workspace
from git_memory.verify import check, recorded
from tests.repos import Repo
from tests.verify.helpers import STALE, rotting_project, write_entry


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
    monkeypatch.setattr(check, "check_file", refuse)


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


def test_only_changed_memory_files_are_checked_again(
    rotted: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _stale(rotted) == STALE
    checked: list[str] = []
    check_file = check.check_file

    def counting(verifier: Any, memory_root: str, relpath: str, data: bytes) -> Any:
        checked.append(relpath)
        return check_file(verifier, memory_root, relpath, data)

    monkeypatch.setattr(check, "check_file", counting)
    # One entry now names a script package.json has, one is added citing a missing path.
    storybook = rotted.root / ".memory" / "entries" / "storybook.md"
    storybook.write_text(storybook.read_text().replace("run storybook", "run lint"))
    write_entry(rotted, "gone-file", "See src/gone.py.", paths=("src/gone.py",))
    expected = (STALE - {"storybook"}) | {"gone-file"}
    assert _stale(rotted) == expected
    assert sorted(checked) == ["entries/gone-file.md", "entries/storybook.md"]
    # The verdicts are the ones a check from scratch gives.
    worktree = discover_worktree(rotted.root)
    scratch = check.verify_memory(worktree)
    assert {c.id for c in scratch if c.kind == "entry" and c.state == "stale"} == expected
    with open_workspace(worktree) as workspace:
        assert recorded.context_counts(workspace) == check.counts(scratch)


def test_damaged_verdicts_are_checked_again(rotted: Repo, hermetic_env: dict[str, Any]) -> None:
    assert _stale(rotted) == STALE
    (verdicts,) = (hermetic_env["state"] / "artifacts" / "freshness").glob("*-verdicts.json")
    document = json.loads(verdicts.read_text())
    document["items"] = {relpath: [item[0], 5] for relpath, item in document["items"].items()}
    verdicts.write_text(json.dumps(document))
    (rotted.root / ".memory/entries/storybook.md").unlink()
    assert _stale(rotted) == STALE - {"storybook"}
