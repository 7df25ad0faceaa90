"""One delivery: every pre-spawn gate, the write-ahead record, the run, the result.

Order matters: the plan, the input and the conformance record (with the binary's realpath
and bytes) are all checked before anything is started, so a refused delivery spawns nothing,
not even `--version`. The delivery record is committed before the first byte is sent: a crash
after that leaves it `sending`, which is indeterminate and never sent again automatically.
A runner that tries anything its profile denies while it answers is refused as conformance
refuses it (`GM_RUNNER_NONCONFORMANT`): its answer is not used, and it is not started again
until `reverify-runner` passes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from git_memory.contracts.runner import RunnerExecutionPlan
from git_memory.errors import GitMemoryError
from git_memory.failpoints import failpoint
from git_memory.repo.secret import OriginSecret
from git_memory.runners import conformance
from git_memory.runners.attempts import attempts_in
from git_memory.runners.binary import BinaryIdentity, identify
from git_memory.runners.ledger import Ledger
from git_memory.runners.plans import check_pre_spawn
from git_memory.runners.process import check_result, spawn
from git_memory.runners.profiles import ResolvedProfile, require_model_runner
from git_memory.runners.refusal import refuse_attempts, refuse_if_nonconformant
from git_memory.runners.view_paths import looked_for


@dataclass(frozen=True)
class Delivery:
    """Everything one delivery needs; `host_env`/`temp_root` are for tests and defaults."""

    state_home: Path
    secret: OriginSecret
    profile: ResolvedProfile
    ledger: Ledger
    host_env: Mapping[str, str] | None = None
    temp_root: Path | None = None


def check_gates(delivery: Delivery, plan: RunnerExecutionPlan, stdin: bytes) -> BinaryIdentity:
    """All pre-spawn gates; returns the verified binary identity. Starts no process."""
    profile = delivery.profile
    require_model_runner(profile)
    profile.contract()  # the profile passes its schema
    check_pre_spawn(plan, profile, stdin)
    assert plan.plan_digest is not None
    _check_not_delivered(delivery.ledger, plan)
    assert profile.binary is not None
    binary = identify(profile.binary, delivery.host_env)
    conformance.require_valid(delivery.state_home, profile, binary, delivery.secret)
    refuse_if_nonconformant(delivery.state_home, profile, binary)
    return binary


def _check_not_delivered(ledger: Ledger, plan: RunnerExecutionPlan) -> None:
    assert plan.plan_digest is not None
    _refuse_resend(plan, ledger.delivery_state(plan.plan_digest))


def _refuse_resend(plan: RunnerExecutionPlan, state: str | None) -> None:
    if state is None:
        return
    if state in ("sending", "indeterminate"):
        raise GitMemoryError(
            "GM_RUNNER_DELIVERY_INDETERMINATE",
            f"an earlier delivery of task {plan.task_id} was interrupted after it started",
            hint="the runner may have received it; it is not sent again. Plan the work anew",
            details={"planDigest": plan.plan_digest},
        )
    raise GitMemoryError(
        "GM_RUNNER_ALREADY_DELIVERED",
        f"task {plan.task_id} was already sent under this plan ({state})",
        hint="a plan is delivered at most once; plan the task anew to retry",
        details={"planDigest": plan.plan_digest, "state": state},
    )


def deliver(delivery: Delivery, plan: RunnerExecutionPlan, stdin: bytes) -> bytes:
    """Send `stdin` under the approved `plan` and return the runner's stdout."""
    binary = check_gates(delivery, plan, stdin)
    assert plan.plan_digest is not None
    if not delivery.ledger.begin_delivery(plan.plan_digest, plan.task_id):
        _refuse_resend(plan, delivery.ledger.delivery_state(plan.plan_digest) or "sending")
    failpoint("runner-delivery-begun")
    try:
        result = spawn(
            delivery.profile,
            binary,
            stdin,
            host_env=delivery.host_env,
            temp_root=delivery.temp_root,
        )
        failpoint("runner-delivery-returned")
        tried = attempts_in(result.sandbox_report, looked_for(delivery.profile.name))
        if tried:
            refuse_attempts(delivery.state_home, delivery.profile, binary, tried)
        stdout = check_result(delivery.profile, result)
    except GitMemoryError:
        delivery.ledger.finish_delivery(plan.plan_digest, "failed")
        raise
    delivery.ledger.finish_delivery(plan.plan_digest, "delivered")
    return stdout
