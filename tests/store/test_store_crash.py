"""Crash at every store transaction boundary in a real subprocess; the DB stays consistent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from git_memory.failpoints import FAILPOINT_EXIT_STATUS, FAILPOINTS
from git_memory.store.integrity import problems
from tests.conftest import PROJECT_ROOT
from tests.store import crash_driver

# (scenario, failpoint, state that must survive)
CASES = [
    ("migrate", "store.migrate.before-commit", "old"),
    ("migrate", "store.migrate.after-commit", "new"),
    ("claim", "store.claim.before-commit", "old"),
    ("claim", "store.claim.after-commit", "new"),
    ("abandon", "store.abandon.before-commit", "old"),
    ("abandon", "store.abandon.after-commit", "new"),
    ("mark-stale", "store.mark-stale.before-commit", "old"),
    ("mark-stale", "store.mark-stale.after-commit", "new"),
    ("submit", "store.submit.after-apply", "old"),
    ("submit", "store.submit.before-commit", "old"),
    ("submit", "store.submit.after-commit", "new"),
    ("sync", "store.sync-approved.after-delete", "old"),
    ("sync", "store.sync-approved.before-commit", "old"),
    ("sync", "store.sync-approved.after-commit", "new"),
    ("sync-partial", "store.sync-approved-partial.before-commit", "old"),
    ("sync-partial", "store.sync-approved-partial.after-commit", "new"),
    ("sync-verified", "store.sync-approved-verified.before-commit", "old"),
    ("sync-verified", "store.sync-approved-verified.after-commit", "new"),
    ("journal", "store.journal.before-commit", "old"),
    ("journal", "store.journal.after-commit", "new"),
    ("consolidation", "store.consolidation.before-commit", "old"),
    ("consolidation", "store.consolidation.after-commit", "new"),
    ("authorization", "store.authorization.before-commit", "old"),
    ("authorization", "store.authorization.after-commit", "new"),
    ("delivery", "store.delivery.before-commit", "old"),
    ("delivery", "store.delivery.after-commit", "new"),
]


REPLAYABLE = {
    "migrate",
    "submit",
    "sync",
    "sync-partial",
    "sync-verified",
    "consolidation",
    "delivery",
}


def test_every_store_failpoint_is_exercised() -> None:
    declared = {name for name in FAILPOINTS if name.startswith("store.")}
    assert declared == {failpoint for _, failpoint, _ in CASES}


def _child(
    scenario: str, directory: Path, failpoint: str | None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("GIT_MEMORY_FAILPOINT", None)
    if failpoint:
        env["GIT_MEMORY_FAILPOINT"] = failpoint
    return subprocess.run(
        [sys.executable, "-m", "tests.store.crash_driver", scenario, str(directory)],
        cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(("scenario", "failpoint", "survivor"), CASES)
def test_crash_leaves_old_or_new_state_never_half(
    tmp_path: Path, scenario: str, failpoint: str, survivor: str
) -> None:
    crash_driver.SETUPS[scenario](tmp_path)
    died = _child(scenario, tmp_path, failpoint)
    assert died.returncode == FAILPOINT_EXIT_STATUS, died.stderr
    assert "done" not in died.stdout
    assert crash_driver.classify(scenario, tmp_path) == survivor
    with crash_driver.open_db(tmp_path) as db:
        assert problems(db) == []
    # lost work is done by the next run; idempotent work replays harmlessly
    if survivor == "old" or scenario in REPLAYABLE:
        crash_driver.ACTIONS[scenario](tmp_path)
    assert crash_driver.classify(scenario, tmp_path) == "new"
    with crash_driver.open_db(tmp_path) as db:
        assert problems(db) == []


def test_without_a_failpoint_the_child_finishes(tmp_path: Path) -> None:
    crash_driver.SETUPS["submit"](tmp_path)
    done = _child("submit", tmp_path, None)
    assert done.returncode == 0, done.stderr
    assert crash_driver.classify("submit", tmp_path) == "new"
