"""Verdicts by effect size with enough events: a small move is no change, a subject touched
too rarely cannot tell, an untouched one is not relevant, adoption counts, and it can get
worse."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from git_memory.extract.builtin.renderers import render_command_fix
from tests.impact.helpers import LANDED, MISSING_MODULE, days, impact_report, land, sessions
from tests.repos import Repo

TRAP = render_command_fix(
    "variant", "pytest", "ModuleNotFoundError: No module named 'app'", "uv run pytest"
)
BEFORE = days(LANDED - timedelta(days=20), 10)
AFTER = days(LANDED + timedelta(days=1), 12)
HIT = [("pytest", True, MISSING_MODULE), ("uv run pytest", False)]
PASSED = [("pytest", False)]
FIX_FIRST = [("uv run pytest", False)]


def test_a_drop_of_a_few_points_over_many_sessions_is_no_change(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    # 79 of 100 before, 70 of 100 after: beyond chance, but not a move a person acts on.
    claude = hermetic_env["claude"]
    land(repo, "pytest-needs-uv", TRAP)
    moments = [LANDED - timedelta(hours=100 - n) for n in range(100)]
    sessions(claude, repo, "b", moments, lambda n: HIT if n < 79 else PASSED)
    sessions(claude, repo, "a", [LANDED + timedelta(hours=n + 1) for n in range(100)],
             lambda n: HIT if n < 70 else PASSED)  # fmt: skip
    [entry] = impact_report(gm, repo)["entries"]
    assert (entry["before"]["hits"], entry["after"]["hits"]) == (79, 70)
    assert entry["verdict"] == "no change"


def test_a_trap_touched_in_three_sessions_before_is_too_rare_to_tell(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    claude = hermetic_env["claude"]
    land(repo, "pytest-needs-uv", TRAP)
    other = [("npm run lint", False)]
    sessions(claude, repo, "b", BEFORE, lambda n: HIT if n < 3 else other)
    sessions(claude, repo, "a", AFTER, lambda n: FIX_FIRST)
    [entry] = impact_report(gm, repo)["entries"]
    assert (entry["before"]["relevant"], entry["before"]["hits"]) == (3, 3)
    assert entry["verdict"] == "too rare to tell"


def test_a_rule_no_session_ever_touches_is_not_relevant(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    claude = hermetic_env["claude"]
    land(repo, "no-laptop-publish", "Never run `npm publish` from a laptop.")
    sessions(claude, repo, "b", BEFORE, lambda n: [("npm test", False)])
    sessions(claude, repo, "a", AFTER, lambda n: [("npm run build", False)])
    report = impact_report(gm, repo)
    [entry] = report["entries"]
    assert entry["before"]["relevant"] + entry["after"]["relevant"] == 0
    assert entry["verdict"] == "not relevant"
    assert "1 entry not relevant (no session touched it)" in report["summary"]


def test_adoption_of_the_fix_alone_is_helped_and_shown(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    claude = hermetic_env["claude"]
    land(repo, "pytest-needs-uv", TRAP)
    sessions(claude, repo, "b", BEFORE, lambda n: FIX_FIRST if n == 0 else PASSED)
    sessions(claude, repo, "a", AFTER, lambda n: FIX_FIRST if n < 10 else PASSED)
    [entry] = impact_report(gm, repo)["entries"]
    assert (entry["before"]["hits"], entry["after"]["hits"]) == (0, 0)
    assert (entry["before"]["followed"], entry["after"]["followed"]) == (1, 10)
    assert entry["verdict"] == "helped"
    line = gm(["impact"], cwd=repo.root).stdout.split("\n")[0]
    assert "ran the fix first in 1/10 sessions (10%) → 10/12 sessions (83%)" in line


def test_a_trap_hit_more_often_after_reads_worse(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    claude = hermetic_env["claude"]
    land(repo, "pytest-needs-uv", TRAP)
    sessions(claude, repo, "b", BEFORE, lambda n: HIT if n == 0 else PASSED)
    sessions(claude, repo, "a", AFTER, lambda n: HIT if n < 9 else PASSED)
    report = impact_report(gm, repo)
    [entry] = report["entries"]
    assert (entry["before"]["hits"], entry["after"]["hits"]) == (1, 9)
    assert entry["verdict"] == "worse"
    assert "1 entry worse since landing" in report["summary"]


def test_a_rule_naming_a_file_not_a_command_applies_to_every_session(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    claude = hermetic_env["claude"]
    land(repo, "no-env-file", "Never commit the `.env` file.")
    sessions(claude, repo, "b", BEFORE, lambda n: [("npm test", False)])
    sessions(claude, repo, "a", AFTER, lambda n: [("npm run build", False)])
    [entry] = impact_report(gm, repo)["entries"]
    assert (entry["before"]["relevant"], entry["after"]["relevant"]) == (10, 12)
    assert entry["verdict"] == "no change"
