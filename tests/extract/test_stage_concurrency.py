"""Siblings advancing the candidate projection, and two processes staging one task."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import PROJECT_ROOT, run_cli
from tests.extract.conftest import SampleRepo
from tests.extract.flow import candidate, decisions, draft_batch, evidence_id, stage


def _tasks(sample_repo: SampleRepo) -> tuple[dict[str, Any], dict[str, Any]]:
    tasks = sample_repo.recall("--limit", "8")["tasks"]
    claude = next(t for t in tasks if "uv run pytest" in t["chunk"]["transcript"])
    codex = next(t for t in tasks if t is not claude)
    return claude, codex


def _claude_batch(task: dict[str, Any]) -> dict[str, Any]:
    turn0 = task["chunk"]["turnEvidence"][0]["evidenceId"]
    return draft_batch(
        task,
        [
            candidate(
                "Run the test suite with `uv run pytest -q`.",
                [("The suite runs with `uv run pytest -q`.", [turn0])],
            )
        ],
    )


def _codex_batch(task: dict[str, Any], content: str) -> dict[str, Any]:
    turn = task["chunk"]["turnEvidence"][1]["evidenceId"]
    return draft_batch(task, [candidate(content, [("stated in the session", [turn])])])


def test_unrelated_sibling_leaves_the_result_set_alone(
    sample_repo: SampleRepo, tmp_path: Path
) -> None:
    claude, codex = _tasks(sample_repo)
    first = stage(sample_repo.root, _claude_batch(claude), tmp_path).json()
    sibling = stage(
        sample_repo.root,
        _codex_batch(codex, "Docker compose brings up Postgres first."),
        tmp_path,
    )
    assert sibling.exit_code == 0
    accepted = stage(sample_repo.root, decisions(first["adjudicationTask"]), tmp_path)
    assert accepted.exit_code == 0, accepted.stderr


def test_related_sibling_makes_the_task_stale(sample_repo: SampleRepo, tmp_path: Path) -> None:
    claude, codex = _tasks(sample_repo)
    first = stage(sample_repo.root, _claude_batch(claude), tmp_path).json()
    assert first["adjudicationTask"]["recallSets"][0]["ordered"] == []
    related = _codex_batch(codex, "Run the test suite with uv run pytest.")
    sibling = stage(sample_repo.root, related, tmp_path).json()["adjudicationTask"]
    # A draft is not memory: the other batch's draft is not in this pool, nor this one in its.
    assert sibling["pool"] == []
    assert stage(sample_repo.root, decisions(sibling), tmp_path).exit_code == 0
    refused = stage(sample_repo.root, decisions(first["adjudicationTask"]), tmp_path)
    error = refused.json()["error"]
    assert error["code"] == "GM_TASK_STALE"
    assert error["details"]["reason"] == "result-set-digest-mismatch"
    assert error["details"]["added"] == [f"{codex['taskId']}-c1"]
    review = run_cli(["review", "--format", "json"], cwd=sample_repo.root).json()
    shown = [item["candidateId"] for item in review["items"]]
    assert shown == [f"{codex['taskId']}-c1"], "a stale adjudication quarantines nothing"
    reissued = error["details"]["adjudicationTask"]
    assert [hit["id"] for hit in reissued["recallSets"][0]["ordered"]] == shown


def test_two_processes_stage_the_same_task(sample_repo: SampleRepo, tmp_path: Path) -> None:
    claude, _ = _tasks(sample_repo)
    request = tmp_path / "batch.json"
    request.write_text(json.dumps(_claude_batch(claude)))
    env = {"PYTHONPATH": str(PROJECT_ROOT)}
    import os

    full_env = {**os.environ, **env}
    argv = [
        sys.executable,
        "-m",
        "git_memory",
        "stage",
        "--request",
        str(request),
        "--format",
        "json",
    ]
    procs = [
        subprocess.Popen(
            argv,
            cwd=sample_repo.root,
            env=full_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outcomes = [(p.wait(timeout=120), p.stdout.read() if p.stdout else "") for p in procs]
    codes = sorted(code for code, _ in outcomes)
    assert codes[0] == 0
    for code, out in outcomes:
        if code != 0:
            assert json.loads(out)["error"]["code"] in ("GM_TASK_CLAIMED", "GM_STATE_BUSY")
    winners = [json.loads(out) for code, out in outcomes if code == 0]
    assert all(w["adjudicationTask"] == winners[0]["adjudicationTask"] for w in winners)
    again = stage(sample_repo.root, _claude_batch(claude), tmp_path)
    assert again.json()["candidates"][0]["candidateId"] == f"{claude['taskId']}-c1"
    ids = run_cli(["status", "--format", "json"], cwd=sample_repo.root).json()
    assert ids["format"] == "git-memory-status@v1"
    assert evidence_id(claude, "turn 0")
