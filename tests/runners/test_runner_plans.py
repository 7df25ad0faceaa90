"""Plans and manifests: exact digests, approvals by digest/manifest/interactive, all logged."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from git_memory.contracts.runner import AuthorizationManifest, InputCoverage, RunnerExecutionPlan
from git_memory.errors import GitMemoryError
from git_memory.runners import plans
from git_memory.runners.profiles import RunnerOptions, resolve_profile
from tests.runners.conftest import RecordingLedger

PROFILE = resolve_profile(RunnerOptions("codex", model="gpt-test"), environ={})


def _plan(task_id: str = "extract-1", stdin: bytes = b"payload-A") -> RunnerExecutionPlan:
    return plans.build_plan(
        PROFILE,
        task_kind="extraction",
        task_id=task_id,
        stdin=stdin,
    )


def _code(call: Callable[..., object], *args: object) -> str:
    with pytest.raises(GitMemoryError) as caught:
        call(*args)
    return caught.value.code


def test_plan_discloses_the_exact_delivery() -> None:
    plan = plans.build_plan(PROFILE, task_kind="extraction", task_id="extract-1", stdin=b"abc")
    assert plan.runner_input_digest == hashlib.sha256(b"abc").hexdigest()
    assert plan.bytes_to_send == 3
    assert (plan.provider, plan.model, plan.endpoint) == (
        "openai",
        "gpt-test",
        "https://api.openai.com/v1",
    )
    assert plan.runner_profile == PROFILE.digest
    assert plan.authorization == "pending"
    assert plan.local_session_persistence == "none"
    assert plan.provider_retention == "unknown"
    assert plan.plan_digest == plan.compute_plan_digest()


def test_same_size_different_content_changes_the_digest() -> None:
    first, second = _plan(stdin=b"payload-A"), _plan(stdin=b"payload-B")
    assert first.bytes_to_send == second.bytes_to_send
    assert first.plan_digest != second.plan_digest


def test_coverage_is_bound() -> None:
    item = InputCoverage(
        source_kind="draft",
        opaque_source_id="cand-1",
        revision=1,
        content_digest="a" * 64,
        bytes=10,
        truncated=False,
    )
    covered = plans.build_plan(
        PROFILE, task_kind="adjudication", task_id="a-1", stdin=b"x", coverage=[item]
    )
    bare = plans.build_plan(PROFILE, task_kind="adjudication", task_id="a-1", stdin=b"x")
    assert covered.plan_digest != bare.plan_digest
    assert covered.input_coverage_digest == covered.compute_input_coverage_digest()


def test_approve_by_exact_digest_only(ledger: RecordingLedger) -> None:
    plan = _plan()
    assert _code(plans.approve_plan, plan, "0" * 64, ledger) == "GM_RUNNER_APPROVAL_MISMATCH"
    assert ledger.approvals == []
    approved = plans.approve_plan(plan, plan.plan_digest or "", ledger)
    assert approved.authorization == "approved"
    assert ledger.approvals[0][:3] == ("runner-plan", plan.plan_digest, "digest")


def test_tampered_plan_is_refused(ledger: RecordingLedger) -> None:
    plan = _plan()
    lying = plan.model_copy(update={"bytes_to_send": 1})
    assert _code(plans.approve_plan, lying, plan.plan_digest, ledger) == ("GM_RUNNER_PLAN_TAMPERED")


def test_manifest_approval_covers_listed_plans_only(ledger: RecordingLedger) -> None:
    first, second = _plan("extract-1", b"one"), _plan("extract-2", b"two")
    manifest = plans.build_manifest([first, second])
    assert manifest.total_bytes == 6
    assert _code(plans.approve_from_manifest, first, manifest, ledger) == (
        "GM_RUNNER_MANIFEST_MISMATCH"  # not approved yet
    )
    assert _code(plans.approve_manifest, manifest, "f" * 64, ledger) == (
        "GM_RUNNER_APPROVAL_MISMATCH"
    )
    approved = plans.approve_manifest(manifest, manifest.manifest_digest or "", ledger)
    ok = plans.approve_from_manifest(first, approved, ledger)
    assert ok.authorization == "approved"
    changed = _plan("extract-2", b"TWO")  # one task's input changed after the preview
    assert _code(plans.approve_from_manifest, changed, approved, ledger) == (
        "GM_RUNNER_PLAN_NOT_IN_MANIFEST"
    )
    still = plans.approve_from_manifest(second, approved, ledger)
    assert still.authorization == "approved"
    vias = [entry[2] for entry in ledger.approvals]
    assert vias == ["manifest", "manifest", "manifest"]
    assert ledger.approvals[0][0] == "runner-manifest"


def test_manifest_with_lying_entries_is_refused(ledger: RecordingLedger) -> None:
    plan = _plan("extract-1", b"one")
    honest = plans.build_manifest([plan])
    entry = honest.plans[0].model_copy(update={"task_id": "extract-9"})
    lying = AuthorizationManifest(
        manifest_digest=None, plans=[entry], total_bytes=honest.total_bytes
    ).with_manifest_digest()
    approved = plans.approve_manifest(lying, lying.manifest_digest or "", ledger)
    assert _code(plans.approve_from_manifest, plan, approved, ledger) == (
        "GM_RUNNER_MANIFEST_MISMATCH"
    )
    forged = approved.model_copy(update={"total_bytes": approved.total_bytes})
    forged = forged.model_copy(update={"manifest_digest": "e" * 64})
    assert _code(plans.approve_from_manifest, plan, forged, ledger) == (
        "GM_RUNNER_MANIFEST_MISMATCH"
    )


def test_manifest_size_limit() -> None:
    many = [_plan(f"extract-{n}", bytes([n])) for n in range(9)]
    assert _code(plans.build_manifest, many) == "GM_RUNNER_MANIFEST_TOO_LARGE"
    assert _code(plans.build_manifest, []) == "GM_RUNNER_MANIFEST_TOO_LARGE"


def test_interactive_approval(ledger: RecordingLedger) -> None:
    pending = [_plan("extract-1", b"one"), _plan("extract-2", b"two")]
    shown: list[str] = []

    def yes(question: str, details: str) -> bool:
        shown.append(question + "\n" + details)
        return True

    approved = plans.approve_interactively(pending, yes, ledger)
    assert [plan.authorization for plan in approved] == ["approved", "approved"]
    assert "6 bytes in 2 task(s)" in shown[0]
    assert "gpt-test @ https://api.openai.com/v1" in shown[0]
    assert [entry[2] for entry in ledger.approvals] == ["interactive", "interactive"]
    assert (
        _code(plans.approve_interactively, pending, lambda q, d: False, ledger)
        == "GM_APPROVAL_DECLINED"
    )
    assert len(ledger.approvals) == 2  # a refusal logs nothing


def test_pre_spawn_gates(ledger: RecordingLedger) -> None:
    plan = _plan(stdin=b"payload-A")
    assert _code(plans.check_pre_spawn, plan, PROFILE, b"payload-A") == (
        "GM_RUNNER_PLAN_NOT_APPROVED"
    )
    approved = plans.approve_plan(plan, plan.plan_digest or "", ledger)
    plans.check_pre_spawn(approved, PROFILE, b"payload-A")
    assert _code(plans.check_pre_spawn, approved, PROFILE, b"payload-B") == (
        "GM_RUNNER_INPUT_MISMATCH"
    )
    assert _code(plans.check_pre_spawn, approved, PROFILE, b"payload-AB") == (
        "GM_RUNNER_INPUT_MISMATCH"
    )
    other = resolve_profile(RunnerOptions("codex", model="other"), environ={})
    assert _code(plans.check_pre_spawn, approved, other, b"payload-A") == (
        "GM_RUNNER_PROFILE_MISMATCH"
    )


def test_plans_and_manifests_are_stored_privately(tmp_path: Path) -> None:
    plan = _plan()
    path = plans.store_plan(tmp_path, plan)
    assert path.stat().st_mode & 0o777 == 0o600
    manifest = plans.build_manifest([plan])
    plans.store_manifest(tmp_path, manifest)
    approved = manifest.model_copy(update={"authorization": "approved"})
    plans.store_manifest(tmp_path, approved)
    loaded = plans.load_manifest(tmp_path, manifest.manifest_digest or "")
    assert loaded is not None
    assert loaded.authorization == "pending"  # approval never comes from a file
    assert plans.load_manifest(tmp_path, "../../etc") is None
    assert plans.load_manifest(tmp_path, "a" * 64) is None
