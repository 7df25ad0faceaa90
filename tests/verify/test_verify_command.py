"""`git memory verify` on a real repository whose memory went partly stale."""

from __future__ import annotations

from typing import Any

import pytest

from tests.repos import Repo
from tests.verify.helpers import FRESH, STALE, UNVERIFIABLE, rotting_project, write_entry


@pytest.fixture
def rotted(repo: Repo) -> Repo:
    rotting_project(repo)
    return repo


def test_verify_names_exactly_the_stale_entries_with_reasons(rotted: Repo, gm: Any) -> None:
    before = rotted.snapshot()
    result = gm(["verify", "--format", "json"], cwd=rotted.root)
    assert result.exit_code == 1, result.stderr
    report = result.json()
    assert report["format"] == "git-memory-verify@v1"
    states = {item["id"]: item["state"] for item in report["entries"]}
    assert {i for i, s in states.items() if s == "stale"} == STALE
    assert {i for i, s in states.items() if s == "fresh"} == FRESH
    assert {i for i, s in states.items() if s == "unverifiable"} == UNVERIFIABLE
    assert report["counts"] == {"fresh": 4, "stale": 4, "unverifiable": 1, "total": 9}
    reasons = {item["id"]: item["reasons"] for item in report["entries"]}
    assert [r["check"] for r in reasons["legacy-module"]] == ["path"]
    assert "src/legacy.py" in reasons["legacy-module"][0]["message"]
    assert reasons["experiment-result"][0]["check"] == "commit"
    assert "not reachable from HEAD" in reasons["experiment-result"][0]["message"]
    assert reasons["deploy-with-make"] == [
        {
            "check": "make-target",
            "subject": "deploy",
            "message": "`make deploy`: Makefile has no target `deploy`",
        }
    ]
    assert reasons["storybook"][0]["check"] == "package-script"
    assert all(not item["reasons"] for item in report["entries"] if item["state"] == "fresh")
    # An unverifiable entry says why: nothing it cites can be checked.
    assert [r["check"] for r in reasons["team-prefers-small-prs"]] == ["unverifiable"]
    assert (
        "nothing it cites could be checked here" in reasons["team-prefers-small-prs"][0]["message"]
    )
    assert rotted.snapshot() == before  # read-only: HEAD, refs and index untouched


def test_text_output_is_one_line_per_stale_entry_then_counts(rotted: Repo, gm: Any) -> None:
    result = gm(["verify"], cwd=rotted.root)
    assert result.exit_code == 1
    lines = result.stdout.strip().split("\n")
    stale_lines = [line for line in lines if ": stale: " in line]
    assert sorted(line.split(":")[0] for line in stale_lines) == sorted(
        f".memory/entries/{i}.md" for i in STALE
    )
    assert "9 checked: 4 fresh, 4 stale, 1 unverifiable" in lines
    unverifiable = [line for line in lines if ": unverifiable: " in line]
    assert unverifiable == [
        ".memory/entries/team-prefers-small-prs.md: unverifiable: nothing it cites could be"
        " checked here (a file, commit or project command whose make target, package script,"
        " script file or manifest can be read)"
    ]


def test_all_fresh_exits_zero_and_ids_narrow_the_check(rotted: Repo, gm: Any) -> None:
    result = gm(["verify", *sorted(FRESH), "--format", "json"], cwd=rotted.root)
    assert result.exit_code == 0, result.stdout
    assert {item["id"] for item in result.json()["entries"]} == FRESH


def test_a_commit_that_never_existed_is_stale(repo: Repo, gm: Any) -> None:
    write_entry(repo, "ghost", "Fixed in that commit.", commits=("0" * 39 + "1",))
    result = gm(["verify", "ghost", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 1
    assert "does not exist" in result.json()["entries"][0]["reasons"][0]["message"]


def test_unknown_id_is_entry_not_found(rotted: Repo, gm: Any) -> None:
    result = gm(["verify", "no-such-entry"], cwd=rotted.root)
    assert result.exit_code == 1
    assert "GM_ENTRY_NOT_FOUND" in result.stderr


def test_untracked_cited_path_is_noted_not_stale(repo: Repo, gm: Any) -> None:
    repo.write("notes/local.txt", "scratch\n")
    write_entry(repo, "local-notes", "See the notes.", paths=("notes/local.txt",))
    result = gm(["verify", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0
    (item,) = result.json()["entries"]
    assert item["state"] == "fresh"
    assert item["notes"] == ["notes/local.txt exists but is not tracked by git"]


def test_deprecated_entries_are_not_checked(repo: Repo, gm: Any) -> None:
    write_entry(repo, "old", "Run `make gone`.", status="deprecated")
    result = gm(["verify", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0
    assert result.json()["entries"] == []


def test_scenes_and_skills_are_checked_when_they_name_commands(repo: Repo, gm: Any) -> None:
    repo.write("justfile", "fmt:\n    ruff format\n")
    repo.write(
        ".memory/skills/release/SKILL.md",
        '---\nname: "release"\ndescription: "Cut a release."\n---\n## Steps\n'
        "- run `just fmt`\n- then `just publish`\n",
    )
    repo.write(
        ".memory/scenes/testing.md",
        "-----META-START-----\ncreated: 2026-01-02\nupdated: 2026-01-03\n"
        'summary: "Testing"\nheat: 2\n-----META-END-----\n## Testing\n- a point\n',
    )
    result = gm(["verify", "--format", "json"], cwd=repo.root)
    (skill,) = result.json()["entries"]  # the scene names no command: not reported
    assert (skill["id"], skill["kind"], skill["state"]) == ("skill:release", "skill", "stale")
    assert skill["reasons"][0]["subject"] == "publish"


def test_shallow_clone_does_not_call_commits_stale(rotted: Repo, gm: Any, tmp_path: Any) -> None:
    from tests.repos import git

    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{rotted.root}", "shallow")
    result = gm(["verify", "experiment-result", "--format", "json"], cwd=tmp_path / "shallow")
    (item,) = result.json()["entries"]
    assert item["state"] == "unverifiable"
    assert "shallow clone" in item["notes"][0]
