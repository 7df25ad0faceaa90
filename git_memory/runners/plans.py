"""Execution plans and manifests: exactly what will be sent, and its approval.

A RunnerExecutionPlan@v1 discloses the exact stdin digest and byte count, the inputs it
covers, the profile digest, provider, model, endpoint and retention. Approval binds to the plan
digest (interactively, by `--approve-plan <digest>`, or through an approved
AuthorizationManifest@v1 listing it); every approval goes to the ledger. `check_pre_spawn`
holds the gates that must pass before any process starts.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from git_memory.contracts.canonical import digest
from git_memory.contracts.runner import (
    MAX_MANIFEST_PLANS,
    AuthorizationManifest,
    InputCoverage,
    ManifestPlan,
    RunnerExecutionPlan,
)
from git_memory.errors import GitMemoryError
from git_memory.paths import ARTIFACTS_DIR, ensure_private_dir, read_private, write_private_atomic
from git_memory.runners.ledger import Ledger, Via
from git_memory.runners.profiles import ResolvedProfile


def build_plan(
    profile: ResolvedProfile,
    *,
    task_kind: str,
    task_id: str,
    stdin: bytes,
    coverage: Sequence[InputCoverage] = (),
    retention: str = "unknown",
) -> RunnerExecutionPlan:
    """A pending plan for sending `stdin` to `profile`'s runner (nothing is sent here)."""
    plan = RunnerExecutionPlan(
        plan_digest=None,
        task_kind=task_kind,
        task_id=task_id,
        runner_input_digest=hashlib.sha256(stdin).hexdigest(),
        input_coverage_digest=digest([item.to_json() for item in coverage]),
        input_coverage=list(coverage),
        runner_profile=profile.digest,
        provider=profile.provider,
        model=profile.model,
        endpoint=profile.endpoint,
        bytes_to_send=len(stdin),
        provider_retention=retention,
    )
    return plan.with_plan_digest()


def build_manifest(plans: Sequence[RunnerExecutionPlan]) -> AuthorizationManifest:
    """A pending manifest over up to eight plans."""
    if not 1 <= len(plans) <= MAX_MANIFEST_PLANS:
        raise GitMemoryError(
            "GM_RUNNER_MANIFEST_TOO_LARGE",
            f"a manifest covers 1 to {MAX_MANIFEST_PLANS} plans, not {len(plans)}",
            hint="lower --limit so fewer tasks are planned at once",
        )
    entries = [
        ManifestPlan(
            plan_digest=_digest_of(plan),
            task_kind=plan.task_kind,
            task_id=plan.task_id,
            bytes_to_send=plan.bytes_to_send,
        )
        for plan in plans
    ]
    manifest = AuthorizationManifest(
        manifest_digest=None, plans=entries, total_bytes=sum(p.bytes_to_send for p in plans)
    )
    return manifest.with_manifest_digest()


def _digest_of(plan: RunnerExecutionPlan) -> str:
    verify_plan(plan)
    assert plan.plan_digest is not None
    return plan.plan_digest


def verify_plan(plan: RunnerExecutionPlan) -> None:
    """The plan's digests recompute (`GM_RUNNER_PLAN_TAMPERED` otherwise)."""
    if (
        plan.plan_digest != plan.compute_plan_digest()
        or plan.input_coverage_digest != plan.compute_input_coverage_digest()
    ):
        raise GitMemoryError(
            "GM_RUNNER_PLAN_TAMPERED",
            f"the plan for task {plan.task_id} does not match its digest",
            hint="plan again; nothing was sent",
        )


def _verify_manifest(manifest: AuthorizationManifest) -> str:
    if manifest.manifest_digest != manifest.compute_manifest_digest():
        raise GitMemoryError(
            "GM_RUNNER_MANIFEST_MISMATCH", "the manifest does not match its digest"
        )
    return manifest.manifest_digest


def approve_plan(
    plan: RunnerExecutionPlan, approved_digest: str, ledger: Ledger, *, via: Via = "digest"
) -> RunnerExecutionPlan:
    """Approve `plan` when `approved_digest` is exactly its digest; log the approval."""
    verify_plan(plan)
    if approved_digest != plan.plan_digest:
        raise GitMemoryError(
            "GM_RUNNER_APPROVAL_MISMATCH",
            f"the approved digest does not match the plan for task {plan.task_id}",
            hint="approve the planDigest shown by the preview; the input may have changed",
            details={"approved": approved_digest, "planDigest": plan.plan_digest},
        )
    ledger.authorize("runner-plan", plan.plan_digest, via, _plan_detail(plan))
    return plan.model_copy(update={"authorization": "approved"})


def approve_manifest(
    manifest: AuthorizationManifest, approved_digest: str, ledger: Ledger
) -> AuthorizationManifest:
    """Approve `manifest` when `approved_digest` is exactly its digest; log the approval."""
    digest = _verify_manifest(manifest)
    if approved_digest != digest:
        raise GitMemoryError(
            "GM_RUNNER_APPROVAL_MISMATCH",
            "the approved digest does not match the authorization manifest",
            hint="approve the manifestDigest shown by the preview; the inputs may have changed",
            details={"approved": approved_digest, "manifestDigest": digest},
        )
    detail = {"plans": len(manifest.plans), "totalBytes": manifest.total_bytes}
    ledger.authorize("runner-manifest", digest, "manifest", detail)
    return manifest.model_copy(update={"authorization": "approved"})


def approve_from_manifest(
    plan: RunnerExecutionPlan, manifest: AuthorizationManifest, ledger: Ledger
) -> RunnerExecutionPlan:
    """Approve one plan through an approved manifest that lists it with the same facts."""
    verify_plan(plan)
    manifest_digest = _verify_manifest(manifest)
    if manifest.authorization != "approved":
        raise GitMemoryError("GM_RUNNER_MANIFEST_MISMATCH", "the manifest is not approved")
    entry = next((p for p in manifest.plans if p.plan_digest == plan.plan_digest), None)
    if entry is None:
        raise GitMemoryError(
            "GM_RUNNER_PLAN_NOT_IN_MANIFEST",
            f"the approved manifest does not list the plan for task {plan.task_id}",
            hint="this task's input changed since the preview; approve its new plan",
        )
    listed = (entry.task_kind, entry.task_id, entry.bytes_to_send)
    if listed != (plan.task_kind, plan.task_id, plan.bytes_to_send):
        raise GitMemoryError(
            "GM_RUNNER_MANIFEST_MISMATCH",
            f"the manifest describes task {entry.task_id} differently from its plan",
        )
    assert plan.plan_digest is not None
    detail = {**_plan_detail(plan), "manifestDigest": manifest_digest}
    ledger.authorize("runner-plan", plan.plan_digest, "manifest", detail)
    return plan.model_copy(update={"authorization": "approved"})


def approve_interactively(
    plans: Sequence[RunnerExecutionPlan],
    ask: Callable[[str, str], bool],
    ledger: Ledger,
) -> list[RunnerExecutionPlan]:
    """Show the plans to a human; approve all of them on yes (`GM_APPROVAL_DECLINED` on no)."""
    for plan in plans:
        verify_plan(plan)
    summary = describe(plans)
    question = f"Send {sum(p.bytes_to_send for p in plans)} bytes in {len(plans)} task(s)?"
    if not ask(question, summary):
        raise GitMemoryError("GM_APPROVAL_DECLINED", "delivery was not approved; nothing was sent")
    approved = []
    for plan in plans:
        assert plan.plan_digest is not None
        ledger.authorize("runner-plan", plan.plan_digest, "interactive", _plan_detail(plan))
        approved.append(plan.model_copy(update={"authorization": "approved"}))
    return approved


def describe(plans: Sequence[RunnerExecutionPlan]) -> str:
    """A human summary: per plan the task, bytes, destination and retention."""
    lines = []
    for plan in plans:
        lines.append(
            f"{plan.task_kind} {plan.task_id}: {plan.bytes_to_send} bytes to {plan.provider} "
            f"({plan.model} @ {plan.endpoint}), retention {plan.provider_retention}, "
            f"plan {plan.plan_digest}"
        )
    return "\n".join(lines)


def _plan_detail(plan: RunnerExecutionPlan) -> dict[str, Any]:
    return {
        "taskKind": plan.task_kind,
        "taskId": plan.task_id,
        "bytesToSend": plan.bytes_to_send,
        "provider": plan.provider,
        "model": plan.model,
        "endpoint": plan.endpoint,
        "runnerProfile": plan.runner_profile,
    }


def check_pre_spawn(plan: RunnerExecutionPlan, profile: ResolvedProfile, stdin: bytes) -> None:
    """Gates on the plan and the input that must pass before any process starts."""
    if plan.authorization != "approved":
        raise GitMemoryError(
            "GM_RUNNER_PLAN_NOT_APPROVED",
            f"the plan for task {plan.task_id} is not approved; nothing was sent",
            hint="approve it with --approve-plan <planDigest> or --approve-manifest <digest>",
        )
    verify_plan(plan)
    if plan.runner_profile != profile.digest:
        raise GitMemoryError(
            "GM_RUNNER_PROFILE_MISMATCH",
            f"the plan for task {plan.task_id} was made for another runner profile",
            hint="plan again with the runner you mean to use",
        )
    if hashlib.sha256(stdin).hexdigest() != plan.runner_input_digest or len(stdin) != (
        plan.bytes_to_send
    ):
        raise GitMemoryError(
            "GM_RUNNER_INPUT_MISMATCH",
            f"the input of task {plan.task_id} is not what the plan approved; nothing was sent",
            hint="plan again and approve the new digest",
        )


def plans_dir(state_home: Path) -> Path:
    """`<state home>/artifacts/runner-plans/` (created 0700)."""
    return ensure_private_dir(ensure_private_dir(state_home / ARTIFACTS_DIR) / "runner-plans")


def manifests_dir(state_home: Path) -> Path:
    """`<state home>/artifacts/runner-manifests/` (created 0700)."""
    directory = ensure_private_dir(state_home / ARTIFACTS_DIR)
    return ensure_private_dir(directory / "runner-manifests")


def store_plan(state_home: Path, plan: RunnerExecutionPlan) -> Path:
    """Keep a pending plan privately so an approval in a later run can find it."""
    path = plans_dir(state_home) / f"{_digest_of(plan)}.json"
    write_private_atomic(path, (json.dumps(plan.to_json()) + "\n").encode())
    return path


def store_manifest(state_home: Path, manifest: AuthorizationManifest) -> Path:
    """Keep a pending manifest privately."""
    path = manifests_dir(state_home) / f"{_verify_manifest(manifest)}.json"
    write_private_atomic(path, (json.dumps(manifest.to_json()) + "\n").encode())
    return path


def load_manifest(state_home: Path, digest: str) -> AuthorizationManifest | None:
    """A stored manifest by digest (None when unknown); always stored pending."""
    if len(digest) != 64 or not all(ch in "0123456789abcdef" for ch in digest):
        return None
    path = manifests_dir(state_home) / f"{digest}.json"
    if not path.exists():
        return None
    manifest = AuthorizationManifest.model_validate_json(read_private(path))
    return manifest.model_copy(update={"authorization": "pending"})
