"""`git memory impact` on real histories: sessions before and after an entry's landing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from git_memory.extract.builtin.renderers import render_command_exit, render_command_fix
from tests.impact.helpers import LANDED, days, impact_report, land, session
from tests.repos import Repo, git
from tests.verify.helpers import write_entry

TRAP = render_command_fix(
    "variant", "pytest", "ModuleNotFoundError: No module named 'app'", "uv run pytest"
)
BEFORE = days(LANDED - timedelta(days=20), 10)
AFTER = days(LANDED + timedelta(days=1), 12)


def _history(repo: Repo, claude: Any, after: int) -> None:
    """Ten sessions before the trap landed (five hit it), then `after` sessions that ran
    the fix first and never hit it."""
    land(repo, "pytest-needs-uv", TRAP)
    for number, when in enumerate(BEFORE):
        hit = number % 2 == 0
        runs = [("pytest", True), ("uv run pytest", False)] if hit else [("uv run pytest", False)]
        session(claude, repo, f"before-{number}", when, runs)
    for number, when in enumerate(AFTER[:after]):
        session(claude, repo, f"after-{number}", when, [("uv run pytest", False)])


def test_a_trap_hit_five_times_before_and_never_in_twelve_after_helped(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    _history(repo, hermetic_env["claude"], after=12)
    report = impact_report(gm, repo)
    [entry] = report["entries"]
    assert entry["id"] == "pytest-needs-uv"
    assert entry["kind"] == "trap"
    assert entry["landedAt"] == "2026-03-10T12:00:00.000Z"
    assert entry["before"] == {"sessions": 10, "days": 20, "hits": 5, "followed": 5, "relevant": 10}
    assert entry["after"] == {"sessions": 12, "days": 12, "hits": 0, "followed": 12, "relevant": 12}
    assert entry["verdict"] == "helped"
    assert report["sessions"] == 22
    assert report["minSessions"] == 10
    assert report["verdicts"]["helped"] == 1
    assert report["summary"].startswith("1 entry helped")


def test_one_session_after_is_too_little_data(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    _history(repo, hermetic_env["claude"], after=1)
    [entry] = impact_report(gm, repo)["entries"]
    assert entry["after"]["sessions"] == 1
    assert entry["verdict"] == "too little data"


def test_the_trap_still_hit_as_often_after_is_no_change(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    _history(repo, hermetic_env["claude"], after=0)
    for number, when in enumerate(AFTER):
        hit = number % 2 == 0
        runs = [("pytest", True), ("uv run pytest", False)] if hit else [("uv run pytest", False)]
        session(hermetic_env["claude"], repo, f"again-{number}", when, runs)
    [entry] = impact_report(gm, repo)["entries"]
    assert (entry["after"]["hits"], entry["after"]["followed"]) == (6, 6)
    assert entry["verdict"] == "no change"


def test_sessions_that_never_touch_the_subject_make_it_not_relevant(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    _history(repo, hermetic_env["claude"], after=0)
    for number, when in enumerate(AFTER):
        session(hermetic_env["claude"], repo, f"docs-{number}", when, [("npm run lint", False)])
    report = impact_report(gm, repo)
    assert report["entries"][0]["verdict"] == "not relevant since"
    assert "consider `git memory retire`" in report["summary"]


def test_a_command_entry_counts_its_use_against_variants(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    claude = hermetic_env["claude"]
    land(repo, "tests-with-uv", render_command_exit("uv run pytest", "test", 3))
    for number, when in enumerate(BEFORE):
        session(claude, repo, f"b-{number}", when, [("python -m pytest", False)])
    for number, when in enumerate(AFTER):
        session(claude, repo, f"a-{number}", when, [("uv run pytest", False)])
    [entry] = impact_report(gm, repo)["entries"]
    assert entry["kind"] == "command"
    assert (entry["before"]["hits"], entry["before"]["followed"]) == (10, 0)
    assert (entry["after"]["hits"], entry["after"]["followed"]) == (0, 12)
    assert entry["verdict"] == "helped"


def test_a_rule_counts_forbidden_commands_and_the_same_ask_again(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    claude = hermetic_env["claude"]
    rule = "Never run `pip install` in this repository; use `uv add` instead."
    land(repo, "no-pip", rule)
    for number, when in enumerate(BEFORE):
        runs = [("pip install requests", False)] if number < 4 else []
        prompt = rule if number == 9 else "add the requests library"
        session(claude, repo, f"b-{number}", when, runs, prompt=prompt)
    for number, when in enumerate(AFTER):
        session(claude, repo, f"a-{number}", when, [("uv add requests", False)])
    [entry] = impact_report(gm, repo)["entries"]
    assert entry["kind"] == "rule"
    assert entry["before"]["hits"] == 5  # four ran pip install, one said the rule again
    assert entry["after"]["hits"] == 0
    assert entry["verdict"] == "helped"


def test_an_uncommitted_entry_says_so(repo: Repo, hermetic_env: dict[str, Any], gm: Any) -> None:
    write_entry(repo, "pytest-needs-uv", TRAP)
    report = impact_report(gm, repo)
    [entry] = report["entries"]
    assert entry["verdict"] == "uncommitted"
    assert entry["landedCommit"] is None
    assert entry["before"] is None
    text = gm(["impact"], cwd=repo.root).stdout
    assert "pytest-needs-uv: not committed on this branch yet" in text


def test_facts_are_not_measured_and_unknown_ids_are_refused(repo: Repo, gm: Any) -> None:
    land(repo, "app-is-flask", "The web app is a Flask application.")
    assert impact_report(gm, repo)["entries"] == []
    result = gm(["impact", "no-such-entry", "--format", "json"], cwd=repo.root)
    assert result.json()["error"]["code"] == "GM_ENTRY_NOT_FOUND"


def test_text_shows_rates_only_on_windows_large_enough(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    _history(repo, hermetic_env["claude"], after=12)
    gm(["sessions", "sync"], cwd=repo.root)
    lines = gm(["impact"], cwd=repo.root).stdout.strip().split("\n")
    assert lines[0].startswith(
        "helped             trap    pytest-needs-uv: hit in 5/10 sessions (50%)"
    )
    assert "0/12 sessions (0%) over 12 days after" in lines[0]
    assert lines[-1].startswith("22 sessions read; 1 entry helped")


def test_a_window_under_the_threshold_shows_no_rate(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    _history(repo, hermetic_env["claude"], after=3)
    gm(["sessions", "sync"], cwd=repo.root)
    line = gm(["impact"], cwd=repo.root).stdout.split("\n")[0]
    assert "0/3 sessions over " in line
    assert "0/3 sessions (" not in line


def test_list_and_status_show_the_same_verdicts(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    _history(repo, hermetic_env["claude"], after=12)
    land(repo, "app-is-flask", "The web app is a Flask application.", when=LANDED)
    report = impact_report(gm, repo)
    listed = gm(["list", "--impact", "--format", "json"], cwd=repo.root).json()
    verdicts = {entry["id"]: entry["impact"] for entry in listed["entries"]}
    assert verdicts == {"pytest-needs-uv": "helped", "app-is-flask": None}
    assert listed["impactSummary"] == f"impact over 22 sessions: {report['summary']}"
    table = gm(["list", "--impact"], cwd=repo.root).stdout
    assert "IMPACT" in table.split("\n")[0]
    assert table.strip().endswith(report["summary"])
    assert "IMPACT" not in gm(["list"], cwd=repo.root).stdout
    status = gm(["status", "--format", "json"], cwd=repo.root).json()
    assert status["counts"]["impact"]["verdicts"] == report["verdicts"]
    text = gm(["status"], cwd=repo.root).stdout
    assert f"impact: {report['summary']} (git memory impact)" in text.split("\n")


def test_since_drops_the_sessions_started_earlier(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    _history(repo, hermetic_env["claude"], after=12)
    report = impact_report(gm, repo, "--since", "2026-02-27")
    [entry] = report["entries"]
    assert report["sessions"] == 12 + 1  # the after sessions and the last one before
    assert entry["before"]["sessions"] == 1
    assert entry["verdict"] == "too little data"


def test_an_entry_merged_from_a_branch_lands_at_the_merge(repo: Repo, gm: Any) -> None:
    repo.git("checkout", "-q", "-b", "side")
    land(repo, "pytest-needs-uv", TRAP, when=LANDED - timedelta(days=5))
    repo.git("checkout", "-q", "main")
    stamp = LANDED.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    dates = {"GIT_COMMITTER_DATE": stamp, "GIT_AUTHOR_DATE": stamp}
    git(repo.root, "merge", "-q", "--no-ff", "-m", "merge side", "side", env=dates)
    merge = repo.git("rev-parse", "HEAD").strip()
    [entry] = impact_report(gm, repo)["entries"]
    assert entry["landedCommit"] == merge
    assert entry["landedAt"] == "2026-03-10T12:00:00.000Z"
