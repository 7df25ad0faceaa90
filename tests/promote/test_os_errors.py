"""The file system refusing a promotion's write: a clear error, a resumable plan, and
`status` (which reports it, never resumes it) and other promotions still working while it is
stuck."""

from __future__ import annotations

import json
import shutil
from typing import Any

import pytest

from git_memory.promote.writer import artifact_token
from tests.promote.helpers import candidate_state, prepare_request, seed_candidate
from tests.promote.scenario import NEW_PATH, Scenario, build, prepare
from tests.promote.test_expiry import _promotions
from tests.repos import Repo


def _plan_status(repo: Repo, plan_id: str) -> str:
    from tests.promote.test_midway import _status

    return _status(repo.root, plan_id)


def _assert_interrupted(promotions: dict[str, Any], plan_id: str) -> None:
    assert promotions["interrupted"] == [
        {"planId": plan_id, "next": f"git memory promote --plan {plan_id}"}
    ]


def _assert_applied(scenario: Scenario) -> None:
    assert scenario.current() == scenario.planned
    assert scenario.artifacts() == []
    assert candidate_state(scenario.root, "cand-new") == ("promoted", 2)


@pytest.mark.parametrize("error", ["eperm", "enospc", "erofs"])
def test_os_error_is_a_clear_error_and_the_plan_resumes(
    gm: Any, gm_proc: Any, repo: Repo, error: str
) -> None:
    scenario = build(repo)
    failing = {"GIT_MEMORY_FAILPOINT": f"promote.before-write:{error}"}
    refused = gm_proc(scenario.promote_args(), cwd=repo.root, env=failing)
    assert refused.returncode == 1, refused.stderr
    assert "[GM_PROMOTE_OS_ERROR]" in refused.stderr
    assert error.upper() in refused.stderr
    assert "GM_INTERNAL" not in refused.stderr
    assert _plan_status(repo, scenario.plan_id) == "applying"
    _assert_interrupted(_promotions(gm, repo), scenario.plan_id)
    # The cause is gone: the next promote finishes the plan.
    resumed = gm([*scenario.promote_args(), "--format", "json"], cwd=repo.root)
    assert resumed.exit_code == 0, resumed.stderr
    assert resumed.json()["resumed"] is True
    assert _plan_status(repo, scenario.plan_id) == "applied"
    _assert_applied(scenario)


def test_status_while_the_cause_persists_reports_it_and_exits_zero(
    gm: Any, gm_proc: Any, repo: Repo
) -> None:
    scenario = build(repo)
    failing = {"GIT_MEMORY_FAILPOINT": "promote.before-write:erofs"}
    assert gm_proc(scenario.promote_args(), cwd=repo.root, env=failing).returncode == 1
    status = gm_proc(["status", "--format", "json"], cwd=repo.root, env=failing)
    assert status.returncode == 0, status.stderr
    _assert_interrupted(json.loads(status.stdout)["counts"]["promotions"], scenario.plan_id)
    again = gm_proc(scenario.promote_args(), cwd=repo.root, env=failing)
    assert again.returncode == 1
    assert "[GM_PROMOTE_OS_ERROR]" in again.stderr
    assert gm(scenario.promote_args(), cwd=repo.root).exit_code == 0
    _assert_applied(scenario)


def test_a_stuck_plan_does_not_stop_status_or_other_promotions(gm: Any, repo: Repo) -> None:
    scenario = build(repo)
    # What the file system refuses is this plan's own write: its staging name is occupied by
    # a directory, so unlinking and creating it fail with a real OSError on every attempt.
    entries = repo.root / ".memory" / "entries"
    token = artifact_token(scenario.plan_id, NEW_PATH, "forward")
    obstacle = entries / f".gm-promote-{token}.new"
    (obstacle / "inside").mkdir(parents=True)
    stuck = gm(scenario.promote_args(), cwd=repo.root)
    assert stuck.exit_code == 1, stuck.stderr
    assert "[GM_PROMOTE_OS_ERROR]" in stuck.stderr
    assert NEW_PATH in stuck.stderr

    promotions = _promotions(gm, repo)
    assert promotions["applyingPlanIds"] == [scenario.plan_id]
    _assert_interrupted(promotions, scenario.plan_id)

    other = seed_candidate(repo.root, "cand-other", "Beta fact about the deploy")
    plan = prepare(repo, prepare_request(other))
    applied = gm(["promote", "--plan", plan.plan_id, "--approve", plan.plan_digest], cwd=repo.root)
    assert applied.exit_code == 0, applied.stderr
    assert candidate_state(repo.root, "cand-other") == ("promoted", 2)

    shutil.rmtree(obstacle)
    assert gm(scenario.promote_args(), cwd=repo.root).exit_code == 0
    assert _promotions(gm, repo)["applyingPlanIds"] == []
    _assert_applied(scenario)
