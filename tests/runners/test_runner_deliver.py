"""Delivery: every gate before any spawn, at-most-once, crash → indeterminate."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from git_memory.contracts.runner import RunnerExecutionPlan
from git_memory.errors import GitMemoryError
from git_memory.failpoints import FAILPOINT_EXIT_STATUS
from git_memory.repo.secret import load_or_create_secret
from git_memory.runners import conformance, plans
from git_memory.runners.deliver import Delivery, deliver
from git_memory.runners.profiles import ResolvedProfile, RunnerOptions, resolve_profile
from tests.conftest import PROJECT_ROOT
from tests.runners.conftest import RecordingLedger, command_profile, spawn_count

FakeRunner = Callable[[str], Path]
STDIN = b'{"taskId": "extract-1"}'


def _setup(
    tmp_path: Path, ledger: RecordingLedger, profile: ResolvedProfile, *, probe: bool = True
) -> tuple[Delivery, RunnerExecutionPlan]:
    home = tmp_path / "state"
    secret = load_or_create_secret(home)
    if probe:
        conformance.ensure(home, profile, secret)
    plan = plans.build_plan(profile, task_kind="extraction", task_id="extract-1", stdin=STDIN)
    return Delivery(home, secret, profile, ledger), plan


def _approve(plan: RunnerExecutionPlan, ledger: RecordingLedger) -> RunnerExecutionPlan:
    return plans.approve_plan(plan, plan.plan_digest or "", ledger)


def _refused(delivery: Delivery, plan: RunnerExecutionPlan, stdin: bytes = STDIN) -> str:
    with pytest.raises(GitMemoryError) as caught:
        deliver(delivery, plan, stdin)
    return caught.value.code


def test_approved_delivery_runs_once(
    tmp_path: Path, ledger: RecordingLedger, fake_runner: FakeRunner
) -> None:
    script = fake_runner("conformant")
    delivery, plan = _setup(tmp_path, ledger, command_profile(script))
    approved = _approve(plan, ledger)
    out = json.loads(deliver(delivery, approved, STDIN))
    assert out["receivedBytes"] == len(STDIN)
    assert ledger.delivery_state(plan.plan_digest or "") == "delivered"
    spawned = spawn_count(script)
    assert _refused(delivery, approved) == "GM_RUNNER_ALREADY_DELIVERED"
    assert spawn_count(script) == spawned


def test_nothing_spawns_without_approval(
    tmp_path: Path, ledger: RecordingLedger, fake_runner: FakeRunner
) -> None:
    script = fake_runner("conformant")
    delivery, plan = _setup(tmp_path, ledger, command_profile(script), probe=False)
    assert _refused(delivery, plan) == "GM_RUNNER_PLAN_NOT_APPROVED"
    assert _refused(delivery, _approve(plan, ledger), STDIN + b" ") == "GM_RUNNER_INPUT_MISMATCH"
    assert spawn_count(script) == 0  # not even --version


def test_no_record_or_forged_record_spawns_nothing(
    tmp_path: Path, ledger: RecordingLedger, fake_runner: FakeRunner
) -> None:
    script = fake_runner("conformant")
    profile = command_profile(script)
    delivery, plan = _setup(tmp_path, ledger, profile, probe=False)
    approved = _approve(plan, ledger)
    assert _refused(delivery, approved) == "GM_RUNNER_CONFORMANCE_REQUIRED"
    forged = {
        "testVersion": "conformance-test@2",
        "profileDigest": profile.digest,
        "binaryRealpath": str(script.resolve()),
        "binaryContentSha256": "0" * 64,
        "cliVersionFingerprint": "0" * 64,
        "passedAt": "2026-01-01T00:00:00.000Z",
    }
    forged["signature"] = conformance.sign(forged, load_or_create_secret(tmp_path / "elsewhere"))
    conformance.record_path(delivery.state_home, profile).write_text(json.dumps(forged))
    assert _refused(delivery, approved) == "GM_RUNNER_CONFORMANCE_INVALID"
    assert spawn_count(script) == 0
    assert ledger.delivery_state(plan.plan_digest or "") is None


def test_changed_binary_after_probe_spawns_nothing(
    tmp_path: Path, ledger: RecordingLedger, fake_runner: FakeRunner
) -> None:
    script = fake_runner("conformant")
    delivery, plan = _setup(tmp_path, ledger, command_profile(script))
    probed = spawn_count(script)
    with open(script, "a") as handle:
        handle.write("# swapped\n")
    assert _refused(delivery, _approve(plan, ledger)) == "GM_RUNNER_CONFORMANCE_INVALID"
    assert spawn_count(script) == probed


def test_plan_for_another_profile_is_refused(
    tmp_path: Path, ledger: RecordingLedger, fake_runner: FakeRunner
) -> None:
    script = fake_runner("conformant")
    delivery, plan = _setup(tmp_path, ledger, command_profile(script))
    other = command_profile(script, GIT_MEMORY_RUNNER_TIMEOUT_MS="1000")
    shifted = Delivery(delivery.state_home, delivery.secret, other, ledger)
    assert _refused(shifted, _approve(plan, ledger)) == "GM_RUNNER_PROFILE_MISMATCH"


def test_failed_delivery_is_not_resent(
    tmp_path: Path, ledger: RecordingLedger, fake_runner: FakeRunner
) -> None:
    script = fake_runner("conformant")
    profile = command_profile(script)
    delivery, plan = _setup(tmp_path, ledger, profile)
    (script.with_suffix(".mode")).write_text("exit-1\n")
    approved = _approve(plan, ledger)
    assert _refused(delivery, approved) == "GM_RUNNER_EXIT"
    assert ledger.delivery_state(plan.plan_digest or "") == "failed"
    assert _refused(delivery, approved) == "GM_RUNNER_ALREADY_DELIVERED"


def test_builtin_is_never_delivered(tmp_path: Path, ledger: RecordingLedger) -> None:
    profile = resolve_profile(RunnerOptions("builtin"), environ={})
    delivery, plan = _setup(tmp_path, ledger, profile, probe=False)
    assert _refused(delivery, _approve(plan, ledger)) == "GM_RUNNER_NOT_PROBED"


CRASHING_DELIVERY = """
import sys
from pathlib import Path
from git_memory.contracts.extraction import OwnerKeys
from git_memory.repo.secret import load_or_create_secret
from git_memory.runners import plans
from git_memory.runners.deliver import Delivery, deliver
from git_memory.runners.profiles import RunnerOptions, resolve_profile
from git_memory.store.db import open_state
from tests.runners.conftest import RecordingLedger

home, ledger_home, script = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
stdin = sys.argv[4].encode()
profile = resolve_profile(RunnerOptions("command", command=script), environ={})
owner = OwnerKeys(repository_key="a" * 64, worktree_key="b" * 64)
ledger = RecordingLedger(open_state(ledger_home), owner)
plan = plans.build_plan(profile, task_kind="extraction", task_id="extract-1", stdin=stdin)
approved = plans.approve_plan(plan, plan.plan_digest, ledger)
deliver(Delivery(home, load_or_create_secret(home), profile, ledger), approved, stdin)
"""


@pytest.mark.parametrize("point", ["runner-delivery-begun", "runner-delivery-returned"])
def test_crash_after_write_ahead_is_indeterminate(
    tmp_path: Path, ledger: RecordingLedger, fake_runner: FakeRunner, point: str
) -> None:
    script = fake_runner("conformant")
    delivery, plan = _setup(tmp_path, ledger, command_profile(script))
    probed = spawn_count(script)
    crashed = subprocess.run(
        [
            sys.executable,
            "-c",
            CRASHING_DELIVERY,
            str(delivery.state_home),
            str(tmp_path / "ledger-state"),
            str(script),
            STDIN.decode(),
        ],
        cwd=PROJECT_ROOT,
        env={**_env(), "GIT_MEMORY_FAILPOINT": point},
        capture_output=True,
        check=False,
    )
    assert crashed.returncode == FAILPOINT_EXIT_STATUS, crashed.stderr
    sent = spawn_count(script) - probed
    assert sent == (0 if point == "runner-delivery-begun" else 1)
    assert ledger.delivery_state(plan.plan_digest or "") == "sending"
    again = _approve(plan, ledger)  # even a fresh approval of the same plan
    assert _refused(delivery, again) == "GM_RUNNER_DELIVERY_INDETERMINATE"
    assert spawn_count(script) - probed == sent


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
