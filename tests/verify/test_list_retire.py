"""`git memory list` and `git memory retire` through the reviewed promotion path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from git_memory.formats.entry import parse_entry
from tests.repos import Repo
from tests.verify.helpers import FRESH, STALE, UNVERIFIABLE, rotting_project, write_entry


@pytest.fixture
def rotted(repo: Repo) -> Repo:
    rotting_project(repo)
    return repo


def _entry(repo: Repo, entry_id: str) -> Any:
    return parse_entry((repo.root / f".memory/entries/{entry_id}.md").read_text())


def test_list_is_a_table_with_freshness(rotted: Repo, gm: Any) -> None:
    result = gm(["list"], cwd=rotted.root)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.strip().split("\n")
    assert lines[0].split() == ["ID", "TYPE", "PRI", "SUPPORT", "LAST", "FRESH", "FIRST", "LINE"]
    assert lines[1].split()[:6] == [
        "deploy-with-make", "work_method", "80", "human-confirmed", "2026-01-05", "stale"
    ]  # fmt: skip
    assert lines[1].endswith("Deploy with `make deploy`.")
    assert lines[-2] == "9 approved: 4 fresh, 4 stale, 1 unverifiable"


def test_list_filters_by_staleness_and_type(rotted: Repo, gm: Any) -> None:
    write_entry(rotted, "a-fact", "The API is versioned.", entry_type="work_fact")
    stale = gm(["list", "--stale", "--format", "json"], cwd=rotted.root).json()
    assert stale["format"] == "git-memory-list@v1"
    assert {e["id"] for e in stale["entries"]} == STALE
    assert all(e["reasons"] for e in stale["entries"])
    facts = gm(["list", "--type", "work_fact", "--format", "json"], cwd=rotted.root).json()
    assert [(e["id"], e["freshness"]) for e in facts["entries"]] == [("a-fact", "unverifiable")]
    assert facts["counts"]["total"] == len(STALE | FRESH | UNVERIFIABLE) + 1


def test_long_ids_are_listed_whole_and_a_prefix_is_said_to_work(repo: Repo, gm: Any) -> None:
    stem = "when-the-integration-suite-fails-on-ci-"
    ids = [stem + "check-the-cache-container", stem + "check-the-database-container"]
    for identifier in ids:
        write_entry(repo, identifier, "One.")
    short = {
        e["id"]: e["shortId"]
        for e in gm(["list", "--format", "json"], cwd=repo.root).json()["entries"]
    }
    assert short == {identifier: identifier for identifier in ids}
    table = gm(["list"], cwd=repo.root).stdout.splitlines()
    assert [line.split()[0] for line in table[1:3]] == ids, "whole ids, nothing cut"
    assert "…" not in "\n".join(table)
    assert table[-1] == (
        "an id may be typed as any unique prefix of it (4 characters or more):"
        " git memory verify ID, git memory retire ID --reason TEXT"
    )
    assert "unique prefix" in gm(["help", "retire"], cwd=repo.root).stdout
    assert "unique prefix" in gm(["help", "verify"], cwd=repo.root).stdout


def _retire(repo: Repo, gm: Any, *args: str) -> dict[str, Any]:
    result = gm(["retire", *args, "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0, result.stdout + result.stderr
    document: dict[str, Any] = result.json()
    return document


def test_retire_takes_stale_memory_out_through_a_reviewed_plan(rotted: Repo, gm: Any) -> None:
    before = {p: (rotted.root / p).read_bytes() for p in (".memory/entries/storybook.md",)}
    plan = _retire(rotted, gm, *sorted(STALE), "--reason", "the code moved on")
    assert plan["status"] == "generated"
    assert sorted(plan["candidateIds"]) == sorted(STALE)
    assert "+status: deprecated" in plan["diff"]
    assert "+Retired: the code moved on" in plan["diff"]
    # Nothing is written before the plan is approved.
    assert {p: (rotted.root / p).read_bytes() for p in before} == before
    wrong = gm(["promote", "--plan", plan["planId"], "--approve", "0" * 64], cwd=rotted.root)
    assert wrong.exit_code == 1
    assert "GM_APPROVAL_MISMATCH" in wrong.stderr
    applied = gm(
        ["promote", "--plan", plan["planId"], "--approve", plan["planDigest"], "--format", "json"],
        cwd=rotted.root,
    )
    assert applied.exit_code == 0, applied.stderr
    assert sorted(applied.json()["files"]) == sorted(f".memory/entries/{i}.md" for i in STALE)
    for entry_id in STALE:
        entry = _entry(rotted, entry_id)
        assert (entry.status, entry.superseded_by) == ("deprecated", None)
        assert entry.body.endswith("\n\nRetired: the code moved on\n")
    verified = gm(["verify"], cwd=rotted.root)
    assert verified.exit_code == 0, verified.stdout
    assert "5 checked: 4 fresh, 0 stale, 1 unverifiable" in verified.stdout
    assert gm(["lint"], cwd=rotted.root).exit_code == 0  # index.json was regenerated


def test_retire_by_a_replacement_sets_superseded_by(rotted: Repo, gm: Any) -> None:
    write_entry(rotted, "deploy-with-just", "Deploy with `just deploy`.")
    plan = _retire(rotted, gm, "deploy-with-make", "--reason", "moved", "--by", "deploy-with-just")
    assert "+superseded_by: deploy-with-just" in plan["diff"]
    promoted = gm(["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]],
                  cwd=rotted.root)  # fmt: skip
    assert promoted.exit_code == 0, promoted.stderr
    assert _entry(rotted, "deploy-with-make").superseded_by == "deploy-with-just"


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["no-such-entry", "--reason", "x"], "GM_ENTRY_NOT_FOUND"),
        (["storybook", "--reason", "x", "--by", "nowhere"], "GM_ENTRY_NOT_FOUND"),
        (["storybook", "--reason", "x", "--by", "storybook"], "GM_RETIRE_INVALID"),
        (["storybook"], "GM_REQUEST_INVALID"),  # a request error is a usage error: exit 2
        (["storybook", "--reason", "two\nlines"], "GM_REQUEST_INVALID"),
        (["storybook", "--reason", "key AKIAIOSFODNN7EXAMPLF leaked"], "GM_LINT_BLOCKED"),
    ],
)
def test_retire_refusals(rotted: Repo, gm: Any, args: list[str], code: str) -> None:
    result = gm(["retire", *args], cwd=rotted.root)
    assert result.exit_code == (2 if code == "GM_REQUEST_INVALID" else 1)
    assert code in result.stderr


def test_retiring_twice_is_refused(rotted: Repo, gm: Any) -> None:
    plan = _retire(rotted, gm, "storybook", "--reason", "gone")
    assert gm(["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]],
              cwd=rotted.root).exit_code == 0  # fmt: skip
    again = gm(["retire", "storybook", "--reason", "gone"], cwd=rotted.root)
    assert again.exit_code == 1
    assert "GM_RETIRE_INVALID" in again.stderr


def test_an_entry_edited_after_the_plan_voids_it(rotted: Repo, gm: Any) -> None:
    plan = _retire(rotted, gm, "storybook", "--reason", "gone")
    path = rotted.root / ".memory/entries/storybook.md"
    edited = path.read_text().replace("Preview", "Browse")
    path.write_text(edited)
    result = gm(["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]],
                cwd=rotted.root)  # fmt: skip
    assert result.exit_code == 1
    assert "GM_PLAN_DRIFT" in result.stderr
    assert path.read_text() == edited  # the third party's edit stays


def test_a_replacement_retired_meanwhile_voids_the_plan(rotted: Repo, gm: Any) -> None:
    first = _retire(rotted, gm, "storybook", "--reason", "gone", "--by", "lint-with-npm")
    second = _retire(rotted, gm, "lint-with-npm", "--reason", "replaced")
    assert gm(["promote", "--plan", second["planId"], "--approve", second["planDigest"]],
              cwd=rotted.root).exit_code == 0  # fmt: skip
    result = gm(["promote", "--plan", first["planId"], "--approve", first["planDigest"]],
                cwd=rotted.root)  # fmt: skip
    assert result.exit_code == 1
    assert "GM_RETIRE_INVALID" in result.stderr
    assert _entry(rotted, "storybook").status == "approved"
    status = gm(["status", "--format", "json"], cwd=rotted.root).json()
    assert status["counts"]["promotions"]["voided"] == 1


def test_retire_leaves_git_untouched(rotted: Repo, gm: Any, hermetic_env: dict[str, Path]) -> None:
    before = rotted.snapshot()
    plan = _retire(rotted, gm, "storybook", "--reason", "gone")
    gm(["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]], cwd=rotted.root)
    assert rotted.snapshot() == before


def test_a_unique_prefix_names_its_entry(repo: Repo, gm: Any) -> None:
    stem = "when-the-integration-suite-fails-on-ci-"
    write_entry(repo, stem + "check-the-database-container", "Run `make db`.")
    write_entry(repo, stem + "check-the-cache-container", "Run `make cache`.")
    short = stem + "check-the-d"
    verified = gm(["verify", short, "--format", "json"], cwd=repo.root)
    assert [e["id"] for e in verified.json()["entries"]] == [stem + "check-the-database-container"]
    plan = _retire(repo, gm, short, "--reason", "no database any more")
    assert plan["candidateIds"] == [stem + "check-the-database-container"]
    ambiguous = gm(["retire", stem + "check-the-…", "--reason", "x"], cwd=repo.root)
    assert ambiguous.exit_code == 2
    assert "GM_ID_AMBIGUOUS" in ambiguous.stderr


def test_status_counts_what_list_lists_after_a_retirement(rotted: Repo, gm: Any) -> None:
    plan = _retire(rotted, gm, "storybook", "--reason", "gone")
    assert gm(["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]],
              cwd=rotted.root).exit_code == 0  # fmt: skip
    listed = gm(["list", "--format", "json"], cwd=rotted.root).json()
    status = gm(["status", "--format", "json"], cwd=rotted.root).json()
    assert status["counts"]["memory"]["approved"]["entries"] == len(listed["entries"]) == 8
    assert status["counts"]["memory"]["approved"]["retired"] == 1
    shown = gm(["status"], cwd=rotted.root).stdout
    assert "(8 approved entries, 1 retired)" in shown
