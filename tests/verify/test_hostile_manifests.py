"""Hostile committed manifests: a package.json nested 100,000 deep, a Makefile line of
200,000 spaces, and manifests that lead outside the worktree (issue 27, items 11 and 12)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.repos import Repo
from tests.verify.helpers import write_entry
from tests.waiting import HANG_CEILING

DEEP = 100_000
COMMANDS = [
    ["verify"],
    ["context"],
    ["list"],
    ["status"],
    ["search", "lint"],
    ["assemble", "--provider", "claude"],
    ["doctor"],
]


@pytest.fixture
def deep_package(repo: Repo, gm: Any) -> Repo:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    repo.write("package.json", '{"scripts": {"lint": "x"}, "a": ' + "[" * DEEP + "]" * DEEP + "}")
    write_entry(repo, "lint-with-npm", "Lint with `npm run lint` before pushing.")
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    repo.commit_all("a package.json nested 100,000 deep")
    return repo


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_package_json_nested_100000_deep_is_never_an_internal_error(
    deep_package: Repo, gm: Any, command: list[str]
) -> None:
    result = gm(command, cwd=deep_package.root)
    assert result.exit_code in (0, 1), result.stderr
    assert "Traceback" not in result.stderr


def test_verify_cannot_tell_from_a_package_json_beyond_the_caps(
    deep_package: Repo, gm: Any
) -> None:
    report = gm(["verify", "--format", "json"], cwd=deep_package.root).json()
    assert [(item["id"], item["state"]) for item in report["entries"]] == [
        ("lint-with-npm", "unverifiable")
    ]
    # The entry is not judged from the unreadable manifest: no reason names it.
    reasons = report["entries"][0]["reasons"]
    assert [r["check"] for r in reasons] == ["unverifiable"]
    assert "package.json" not in reasons[0]["message"]


def test_a_makefile_line_of_a_million_spaces_is_read_in_linear_time(
    repo: Repo, gm: Any, gm_proc: Any
) -> None:
    # At this length any reading that grows faster than the line would run for hours.
    spaces = " " * 1_000_000
    repo.write("Makefile", "x" + spaces + "\n" + "lint" + spaces + ":\n\tcheck\n")
    write_entry(repo, "lint-with-make", "Lint with `make lint`.")
    write_entry(repo, "build-with-make", "Build with `make build`.")
    repo.commit_all("a Makefile with long blank runs")
    for command in (["verify", "--format", "json"], ["context"]):
        done = gm_proc(command, cwd=repo.root, timeout=HANG_CEILING)
        assert done.returncode in (0, 1), done.stderr
    assert _states(gm, repo) == {"lint-with-make": "fresh", "build-with-make": "stale"}


def _states(gm: Any, repo: Repo) -> dict[str, str]:
    result = gm(["verify", "--format", "json"], cwd=repo.root)
    assert result.exit_code in (0, 1), result.stderr
    return {item["id"]: item["state"] for item in result.json()["entries"]}


def _guesses(repo: Repo) -> None:
    write_entry(repo, "guess-right", "Run `make secret-target`.")
    write_entry(repo, "guess-wrong", "Run `make no-such-target`.")


def _outside(repo: Repo) -> Path:
    outside = repo.root.parent / "outside.mk"
    outside.write_text("secret-target:\n\techo hidden\n")
    return outside


def test_a_symlinked_makefile_is_not_followed_out_of_the_worktree(repo: Repo, gm: Any) -> None:
    (repo.root / "Makefile").symlink_to(_outside(repo))
    _guesses(repo)
    repo.commit_all("a Makefile that is a link to a file outside")
    states = _states(gm, repo)
    # Whether a guessed name is in the outside file cannot be told from the answer.
    assert states["guess-right"] == states["guess-wrong"] == "unverifiable"


def test_a_directory_link_on_the_way_is_not_followed(repo: Repo, gm: Any) -> None:
    _outside(repo)
    (repo.root / "build").symlink_to(repo.root.parent)
    write_entry(repo, "guess-right", "Run `make -f build/outside.mk secret-target`.")
    write_entry(repo, "guess-wrong", "Run `make -f build/outside.mk no-such-target`.")
    repo.commit_all("a directory link to the outside")
    states = _states(gm, repo)
    assert states["guess-right"] == states["guess-wrong"] == "unverifiable"


@pytest.mark.parametrize("include", ["include ../outside.mk", "-include /{outside}"])
def test_an_include_outside_the_worktree_is_not_read(repo: Repo, gm: Any, include: str) -> None:
    outside = _outside(repo)
    repo.write("Makefile", include.format(outside=str(outside).lstrip("/")) + "\nlint:\n\tx\n")
    _guesses(repo)
    write_entry(repo, "lint", "Run `make lint`.")
    repo.commit_all("a Makefile that includes a file outside")
    states = _states(gm, repo)
    assert states["guess-right"] == states["guess-wrong"] == "unverifiable"
    assert states["lint"] == "fresh"
