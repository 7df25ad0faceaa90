"""Crash recovery: a real subprocess dies at each failpoint; the next command converges."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from git_memory.failpoints import FAILPOINT_EXIT_STATUS, FAILPOINTS
from tests.promote.helpers import candidate_state
from tests.promote.scenario import NEW_PATH, OLD_BYTES, OLD_PATH, build
from tests.repos import Repo

FORWARD_POINTS = [
    "promote.after-intent",
    "promote.after-write",
    "promote.before-finalize",
    "promote.after-finalize",
]


def test_every_promote_failpoint_is_declared() -> None:
    for name in [*FORWARD_POINTS, "promote.during-rollback"]:
        assert name in FAILPOINTS


def _memory_files(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted((root / ".memory").rglob("*"))
        if path.is_file()
    }


def _assert_status_reports_without_writing(gm: Any, scenario: Any) -> None:
    """Status names the interrupted plan and the command that resumes it, and writes nothing."""
    files = _memory_files(scenario.root)
    status = gm(["status", "--format", "json"], cwd=scenario.root)
    assert status.exit_code == 0, status.stderr
    interrupted = status.json()["counts"]["promotions"]["interrupted"]
    assert [plan["planId"] for plan in interrupted] == [scenario.plan_id]
    assert interrupted[0]["next"] == f"git memory promote --plan {scenario.plan_id}"
    assert _memory_files(scenario.root) == files
    text = gm(["status"], cwd=scenario.root).stdout
    assert "was interrupted; resume it: git memory promote --plan" in text


def _assert_applied(scenario: Any) -> None:
    assert scenario.current() == scenario.planned
    assert scenario.artifacts() == []
    assert candidate_state(scenario.root, "cand-new") == ("promoted", 2)
    assert candidate_state(scenario.root, "cand-upd") == ("promoted", 2)
    index = (scenario.root / ".memory/index.json").read_text()
    assert "alpha-fact-about-the-build" in index
    assert "old-entry" in index


@pytest.mark.parametrize("point", FORWARD_POINTS)
def test_crash_then_resume_converges(gm: Any, gm_proc: Any, repo: Repo, point: str) -> None:
    before = repo.snapshot()
    scenario = build(repo)
    crashed = gm_proc(scenario.promote_args(), cwd=repo.root, env={"GIT_MEMORY_FAILPOINT": point})
    assert crashed.returncode == FAILPOINT_EXIT_STATUS, crashed.stderr
    assert repo.snapshot() == before
    for path, data in scenario.current().items():
        assert data in (scenario.old[path], scenario.planned[path])
    _assert_status_reports_without_writing(gm, scenario)
    resumed = gm(scenario.promote_args(), cwd=repo.root)  # the next command, in a fresh run
    assert resumed.exit_code == 0, resumed.stderr
    assert repo.snapshot() == before
    _assert_applied(scenario)
    again = gm([*scenario.promote_args(), "--format", "json"], cwd=repo.root)
    assert again.exit_code == 0, again.stderr
    assert again.json()["replayed"] is True
    _assert_applied(scenario)
    assert repo.snapshot() == before


def test_crash_during_rollback_keeps_third_party_edit(gm: Any, gm_proc: Any, repo: Repo) -> None:
    """Die after the first write; a third party edits the second target; the resume rolls
    back (and dies mid-rollback); the next promote finishes: old bytes, their edit, no trace."""
    before = repo.snapshot()
    scenario = build(repo)
    crashed = gm_proc(
        scenario.promote_args(), cwd=repo.root, env={"GIT_MEMORY_FAILPOINT": "promote.after-write"}
    )
    assert crashed.returncode == FAILPOINT_EXIT_STATUS
    assert scenario.current()[NEW_PATH] == scenario.planned[NEW_PATH]
    edited = OLD_BYTES.replace(b"The old text", b"Edited by a teammate")
    (repo.root / OLD_PATH).write_bytes(edited)
    dying = gm_proc(
        scenario.promote_args(),
        cwd=repo.root,
        env={"GIT_MEMORY_FAILPOINT": "promote.during-rollback"},
    )
    assert dying.returncode == FAILPOINT_EXIT_STATUS, dying.stderr
    finished = gm(scenario.promote_args(), cwd=repo.root)
    assert finished.exit_code == 1
    assert "GM_PLAN_VOIDED" in finished.stderr
    assert scenario.current() == {NEW_PATH: None, OLD_PATH: edited}
    assert scenario.artifacts() == []
    assert candidate_state(repo.root, "cand-new") == ("quarantined", 1)
    promoted = gm(scenario.promote_args(), cwd=repo.root)
    assert promoted.exit_code == 1
    assert "GM_PLAN_VOIDED" in promoted.stderr
    assert repo.snapshot() == before
