"""Drift that lands after the precheck, in the middle of the writes: roll back, keep theirs."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from git_memory.errors import GitMemoryError
from git_memory.promote import apply, approval
from git_memory.repo.binding import discover_worktree
from git_memory.store.session import open_workspace
from tests.promote.helpers import candidate_state
from tests.promote.scenario import NEW_PATH, OLD_BYTES, OLD_PATH, Scenario, build
from tests.repos import Repo


def _mutate_after_precheck(scenario: Scenario, meddle: Callable[[], object]) -> GitMemoryError:
    worktree = discover_worktree(scenario.root)
    with open_workspace(worktree, sync=False) as workspace:
        db, owner = workspace.db, workspace.owner
        approval.approve(db, owner, scenario.plan_id, approval.Approval("digest"))
        record, plan = apply.load_plan(db, scenario.plan_id, owner)
        apply._precheck(worktree, db, record, plan)
        meddle()
        with pytest.raises(GitMemoryError) as caught:
            apply._mutate(worktree, db, scenario.plan_id)
    return caught.value


def _status(root: Path, plan_id: str) -> str:
    db = sqlite3.connect(discover_worktree(root).state_home / "memory-state.sqlite3")
    try:
        row = db.execute(
            "SELECT status FROM promotion_journal WHERE plan_id = ?", (plan_id,)
        ).fetchone()
    finally:
        db.close()
    return str(row[0])


def test_edit_midway_rolls_back_and_keeps_the_edit(repo: Repo) -> None:
    scenario = build(repo)
    edited = OLD_BYTES + b"a teammate's line\n"
    error = _mutate_after_precheck(scenario, lambda: (repo.root / OLD_PATH).write_bytes(edited))
    assert error.code == "GM_PLAN_DRIFT"
    assert error.details is not None
    assert error.details["driftedPath"] == OLD_PATH
    assert scenario.current() == {NEW_PATH: None, OLD_PATH: edited}
    assert scenario.artifacts() == []
    assert _status(repo.root, scenario.plan_id) == "voided"
    assert candidate_state(repo.root, "cand-new") == ("quarantined", 1)


def test_symlink_midway_rolls_back(repo: Repo, tmp_path: Path) -> None:
    scenario = build(repo)
    victim = tmp_path / "victim.md"
    victim.write_bytes(OLD_BYTES)

    def plant() -> None:
        (repo.root / OLD_PATH).unlink()
        (repo.root / OLD_PATH).symlink_to(victim)

    error = _mutate_after_precheck(scenario, plant)
    assert error.code == "GM_SYMLINK_REFUSED"
    assert victim.read_bytes() == OLD_BYTES
    assert not (repo.root / NEW_PATH).exists()
    assert scenario.artifacts() == []
    assert _status(repo.root, scenario.plan_id) == "voided"
