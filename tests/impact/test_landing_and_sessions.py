"""Honest landings (an edit moves it, rewritten history is recognised) and every session of
the repository counted: those of every worktree, and those without a timestamp named."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from git_memory.extract.builtin.renderers import render_command_fix
from tests.impact.helpers import (
    LANDED,
    MISSING_MODULE,
    days,
    impact_report,
    land,
    session,
    sessions,
)
from tests.repos import Repo, git
from tests.verify.helpers import write_entry

ERROR = "ModuleNotFoundError: No module named 'app'"
TRAP = render_command_fix("variant", "pytest", ERROR, "uv run pytest")
BEFORE = days(LANDED - timedelta(days=20), 10)
AFTER = days(LANDED + timedelta(days=1), 12)
HIT = [("pytest", True, MISSING_MODULE), ("uv run pytest", False)]
FIX_FIRST = [("uv run pytest", False)]


def _history(claude: Path, repo: Repo, prefix: str = "", directory: str = "") -> None:
    """Half the sessions before the landing hit the trap; none after."""
    sessions(claude, repo, f"{prefix}b", BEFORE, lambda n: HIT if n % 2 else FIX_FIRST)
    sessions(claude, repo, f"{prefix}a", AFTER, lambda n: FIX_FIRST)


def _commit(repo: Repo, message: str, when: Any) -> None:
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    git(repo.root, "add", "-A")
    dates = {"GIT_COMMITTER_DATE": stamp, "GIT_AUTHOR_DATE": stamp}
    git(repo.root, "commit", "-q", "-m", message, env=dates)


def test_an_edit_after_landing_moves_the_landing_and_says_so(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    first = LANDED - timedelta(days=40)
    land(
        repo, "pytest-needs-uv", render_command_fix("variant", "pytest", "", "uv run pytest"), first
    )
    edit = land(repo, "pytest-needs-uv", TRAP)
    write_entry(repo, "pytest-needs-uv", TRAP, priority=70)  # the frontmatter only
    _commit(repo, "reprioritise", LANDED + timedelta(days=2))
    _history(hermetic_env["claude"], repo)
    [entry] = impact_report(gm, repo)["entries"]
    assert entry["landedCommit"] == edit
    assert entry["landedAt"] == "2026-03-10T12:00:00.000Z"
    assert entry["firstLandedAt"] == "2026-01-29T12:00:00.000Z"
    assert entry["landingFound"] == "commit"
    assert entry["verdict"] == "helped"
    line = gm(["impact"], cwd=repo.root).stdout.split("\n")[0]
    assert "landed 2026-03-10; text edited since it first landed 2026-01-29" in line


def test_a_rebase_of_landed_memory_is_dated_by_the_same_text_before_it(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    repo.git("branch", "base")
    land(repo, "pytest-needs-uv", TRAP)
    repo.git("checkout", "-q", "base")
    repo.write("NOTES.md", "notes\n")
    repo.commit_all("notes")
    repo.git("checkout", "-q", "main")
    repo.git("rebase", "-q", "base")  # commits made again today
    _history(hermetic_env["claude"], repo)
    [entry] = impact_report(gm, repo)["entries"]
    assert entry["landedCommit"] == repo.git("rev-parse", "HEAD").strip()
    assert entry["landedAt"] == "2026-03-10T12:00:00.000Z"
    assert entry["landingFound"] == "content"
    assert entry["verdict"] == "helped"
    line = gm(["impact"], cwd=repo.root).stdout.split("\n")[0]
    assert "rewritten history: dated by the same text before the rewrite" in line


def test_a_squash_with_no_old_commits_left_is_dated_by_its_author_date(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    landing = land(repo, "pytest-needs-uv", TRAP)
    repo.write("NOTES.md", "notes\n")
    _commit(repo, "notes", LANDED + timedelta(hours=1))
    repo.git("reset", "-q", "--soft", "HEAD~2")
    repo.git("commit", "-q", "-C", landing)  # the squash keeps the first author date
    repo.git("reflog", "expire", "--expire=now", "--all")
    repo.git("gc", "-q", "--prune=now")
    _history(hermetic_env["claude"], repo)
    [entry] = impact_report(gm, repo)["entries"]
    assert entry["landedAt"] == "2026-03-10T12:00:00.000Z"
    assert entry["landingFound"] == "author date"
    assert entry["verdict"] == "helped"


def test_sessions_without_a_timestamp_are_counted_and_named(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    claude = hermetic_env["claude"]
    land(repo, "pytest-needs-uv", TRAP)
    _history(claude, repo)
    session(claude, repo, "no-clock-1", None, HIT)
    session(claude, repo, "no-clock-2", None, FIX_FIRST)
    report = impact_report(gm, repo)
    assert report["sessions"] == 22
    assert len(report["undated"]) == 2
    for key in report["undated"]:  # the keys `sessions show` takes
        assert gm(["sessions", "show", key], cwd=repo.root).exit_code == 0
    text = gm(["impact"], cwd=repo.root).stdout
    assert f"2 sessions without a start time not counted: {', '.join(report['undated'])}" in text


def test_every_worktree_counts_by_default_and_the_split_shows_when_it_differs(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any, tmp_path: Path
) -> None:
    claude = hermetic_env["claude"]
    land(repo, "pytest-needs-uv", TRAP)
    other = repo.add_worktree(tmp_path / "feature-wt", "feature")
    # In the main worktree the trap is still hit after; in the other one, never.
    sessions(claude, repo, "main-b", BEFORE, lambda n: HIT if n % 2 else FIX_FIRST)
    sessions(claude, repo, "main-a", AFTER, lambda n: HIT if n % 2 else FIX_FIRST)
    _history(claude, other, prefix="wt-")
    report = impact_report(gm, repo)
    [entry] = report["entries"]
    assert report["sessions"] == 44
    assert report["worktrees"] == ["feature-wt", "main"]
    assert (entry["before"]["hits"], entry["after"]["hits"]) == (10, 6)
    assert entry["verdict"] == "helped"
    assert entry["split"] == {"feature-wt": "helped", "main": "no change"}
    text = gm(["impact"], cwd=repo.root).stdout
    assert "per worktree: feature-wt helped, main no change" in text
    assert "44 sessions read in 2 worktrees" in text
    alone = impact_report(gm, repo, "--worktree")
    assert alone["sessions"] == 22
    assert alone["entries"][0]["verdict"] == "no change"


def _teammate(claude: Path, repo: Repo, reads: str) -> None:
    """A teammate's sessions an hour after each of `_history`'s, each reading a file under
    their own home (`reads`): half hit the trap before the landing, none after."""
    look = (f"ls {reads}", False, "00")
    later = [[when + timedelta(hours=1) for when in moments] for moments in (BEFORE, AFTER)]
    sessions(claude, repo, "mate-b", later[0], lambda n: [look, *(HIT if n % 2 else FIX_FIRST)])
    sessions(claude, repo, "mate-a", later[1], lambda n: [look, *FIX_FIRST])


def _you_still_and_a_teammate_no_longer(claude: Any, repo: Repo) -> None:
    """This machine's user still hits the trap after it landed; a teammate, whose sessions
    read their module cache under their own home, no longer does."""
    sessions(claude, repo, "you-b", BEFORE, lambda n: HIT if n % 2 else FIX_FIRST)
    sessions(claude, repo, "you-a", AFTER, lambda n: HIT if n % 2 else FIX_FIRST)
    _teammate(claude, repo, "/Users/alice/go/pkg/mod")


def test_each_persons_verdict_shows_when_it_differs_and_names_no_one(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    land(repo, "pytest-needs-uv", TRAP)
    _you_still_and_a_teammate_no_longer(hermetic_env["claude"], repo)
    report = impact_report(gm, repo)
    [entry] = report["entries"]
    assert (report["sessions"], report["people"]) == (44, 2)
    assert entry["verdict"] == "helped"
    assert entry["personSplit"] == {"you": "no change", "teammate 1": "helped"}
    assert entry["split"] == {}
    text = gm(["impact"], cwd=repo.root).stdout
    assert "per person: you no change, teammate 1 helped" in text
    assert "44 sessions of 2 people read;" in text
    assert "alice" not in text
    assert "alice" not in str(report)


def test_a_persons_move_is_not_read_either_when_nothing_delivered_the_entry(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    land(repo, "pytest-needs-uv", TRAP, delivered=False)
    _you_still_and_a_teammate_no_longer(hermetic_env["claude"], repo)
    [entry] = impact_report(gm, repo)["entries"]
    assert entry["verdict"] == "not read"
    assert entry["personSplit"] == {"you": "no change", "teammate 1": "not read"}


def test_no_person_split_when_everyone_tells_the_same(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    claude = hermetic_env["claude"]
    land(repo, "pytest-needs-uv", TRAP)
    _history(claude, repo)
    _teammate(claude, repo, "/home/bob/.cache/go-build")
    report = impact_report(gm, repo)
    [entry] = report["entries"]
    assert (report["people"], entry["verdict"], entry["personSplit"]) == (2, "helped", {})
    assert "per person" not in gm(["impact"], cwd=repo.root).stdout
