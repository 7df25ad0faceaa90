"""Batch extraction through the extraction fake: approvals, staging, quarantine, resume."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from git_memory.contracts.extraction import MemoryExtractionRequest
from git_memory.errors import GitMemoryError
from git_memory.extract.pipeline import BatchOutcome, run_batch
from git_memory.repo.binding import Worktree, discover_worktree
from git_memory.runners.profiles import RunnerOptions
from git_memory.runners.runner import DeliveryApproval
from git_memory.store.session import open_workspace
from tests.conftest import run_cli
from tests.extract.conftest import SINCE, UNTIL, build_sample_repo
from tests.runners.conftest import set_mode, spawn_count

FakeRunner = Callable[[str], Path]
REQUEST = MemoryExtractionRequest.model_validate({"window": {"after": SINCE, "before": UNTIL}})


def _run(
    worktree: Worktree, options: RunnerOptions, approve_plan: str | None = None
) -> BatchOutcome:
    with open_workspace(worktree) as workspace:
        return run_batch(workspace, options, REQUEST, approval=DeliveryApproval(plan=approve_plan))


def _required(call: Callable[[], object]) -> GitMemoryError:
    with pytest.raises(GitMemoryError) as caught:
        call()
    return caught.value


def test_full_batch_quarantines_candidates(
    tmp_path: Path, hermetic_env: dict[str, Path], fake_runner: FakeRunner
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    worktree = discover_worktree(sample.root)
    script = fake_runner("extraction")
    options = RunnerOptions("command", command=str(script))
    preview = _required(lambda: _run(worktree, options))
    assert preview.code == "GM_APPROVAL_REQUIRED"
    assert spawn_count(script) == 0  # a preview sends nothing, probes nothing
    (plan,) = preview.details["plans"]
    assert plan["taskKind"] == "extraction"
    extracted = _required(lambda: _run(worktree, options, plan["planDigest"]))
    assert extracted.code == "GM_APPROVAL_REQUIRED"  # the adjudication is its own delivery
    (adjudication,) = extracted.details["plans"]
    assert adjudication["taskKind"] == "adjudication"
    done = _run(worktree, options, adjudication["planDigest"])
    assert done.adjudicated == [adjudication["taskId"]]
    assert len(done.quarantined) == 1
    review = run_cli(["review", "--format", "json"], cwd=sample.root)
    assert review.exit_code == 0, review.stderr
    assert "npm run test release" in review.stdout


def test_bad_answer_stores_nothing(
    tmp_path: Path, hermetic_env: dict[str, Path], fake_runner: FakeRunner
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    worktree = discover_worktree(sample.root)
    script = fake_runner("extraction")
    options = RunnerOptions("command", command=str(script))
    (plan,) = _required(lambda: _run(worktree, options)).details["plans"]
    set_mode(script, "wrong-binding")
    refused = _required(lambda: _run(worktree, options, plan["planDigest"]))
    assert refused.code == "GM_RUNNER_OUTPUT_INVALID"
    again = _required(lambda: _run(worktree, options))
    assert again.details["plans"][0]["taskKind"] == "extraction"  # nothing was staged


def test_extract_command_end_to_end(
    tmp_path: Path, hermetic_env: dict[str, Path], fake_runner: FakeRunner
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    script = fake_runner("extraction")
    base = ["extract", "--runner", "command", "--runner-command", str(script)]
    window = ["--since", SINCE, "--until", UNTIL]
    preview = run_cli([*base, *window, "--format", "json"], cwd=sample.root)
    assert preview.exit_code == 1
    error = preview.json()["error"]
    assert error["code"] == "GM_APPROVAL_REQUIRED"
    plan = error["details"]["plans"][0]
    assert plan["format"] == "git-memory-runner-execution-plan@v1"
    text = run_cli([*base, *window], cwd=sample.root)
    assert "GM_APPROVAL_REQUIRED" in text.stderr
    assert plan["planDigest"] in text.stderr
    step = run_cli(
        [*base, *window, "--approve-plan", plan["planDigest"], "--format", "json"], cwd=sample.root
    )
    assert step.exit_code == 1
    adjudication = step.json()["error"]["details"]["plans"][0]
    done = run_cli(
        [*base, *window, "--approve-plan", adjudication["planDigest"], "--format", "json"],
        cwd=sample.root,
    )
    assert done.exit_code == 0, done.stderr + done.stdout
    assert len(done.json()["quarantined"]) == 1
    assert spawn_count(script) == 4  # --version, probe, extraction, adjudication
    missing = run_cli(["extract", *window], cwd=sample.root)
    assert missing.exit_code == 2
