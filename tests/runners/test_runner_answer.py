"""Runner answers: one JSON document (one fence tolerated), strict schema, echoes checked."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from git_memory.contracts.adjudication import AdjudicationResult
from git_memory.contracts.extraction import CandidateDraftBatch
from git_memory.errors import GitMemoryError
from git_memory.runners.answer import parse_document, validate_answer
from git_memory.runners.binary import identify
from git_memory.runners.process import run_checked
from tests.runners.conftest import command_profile, set_mode

FakeRunner = Callable[[str], Path]
OWNER = {"repositoryKey": "a" * 64, "worktreeKey": "b" * 64}
BINDING: dict[str, Any] = {
    "databaseUuid": "db-1",
    "owner": OWNER,
    "sourceInputDigest": "c" * 64,
    "selection": {
        "requestDigest": "d" * 64,
        "resultSetDigest": "e" * 64,
        "sourceBindingDigest": "f" * 64,
    },
    "turnRevisions": ["1" * 64],
    "payloadDigests": [],
    "deliveryEdgeRevisions": [],
    "promptVersion": "memory-prompts@2",
    "schemaVersion": "git-memory-candidate-draft-batch@v1",
    "chunkerVersion": "memory-chunker@1",
    "provenance": {"snapshotSeq": "7", "evaluatedAt": "2026-01-01T00:00:00.000Z"},
}
ADJUDICATION_BINDING: dict[str, Any] = {
    "databaseUuid": "db-1",
    "memoryStateUuid": "ms-1",
    "owner": OWNER,
    "draftBatchDigest": "c" * 64,
    "approvedProjection": {"generation": 0, "analyzerVersion": "a@1"},
    "candidateProjection": {"generation": 1, "analyzerVersion": "a@1"},
    "recallAlgorithmVersion": "recall-rrf@1",
    "recallQueryDigest": "d" * 64,
    "resultSetDigest": "e" * 64,
    "poolItemRevisions": [],
    "promptVersion": "memory-adjudication@2",
    "schemaVersion": "git-memory-adjudication-result@v1",
}
TASK = {
    "format": "git-memory-extraction-task@v1",
    "taskId": "extract-1",
    "binding": BINDING,
    "evidenceCatalog": [{"evidenceId": "ev-0-0123456789ab", "kind": "turn"}],
}


def _answer(fake_runner: FakeRunner, task: dict[str, Any], *modes: str) -> bytes:
    script = fake_runner("extraction")
    if modes:
        set_mode(script, *modes)
    done = subprocess.run(
        [str(script)], input=json.dumps(task).encode(), capture_output=True, check=True
    )
    return done.stdout


def _refused(stdout: bytes, model: Any = CandidateDraftBatch, **kw: Any) -> str:
    with pytest.raises(GitMemoryError) as caught:
        validate_answer(stdout, model, task_id=kw.get("task_id", "extract-1"), binding=BINDING)
    return caught.value.code


def test_extraction_answer_is_accepted(fake_runner: FakeRunner) -> None:
    batch = validate_answer(
        _answer(fake_runner, TASK), CandidateDraftBatch, task_id="extract-1", binding=BINDING
    )
    assert batch.candidates[0].statements[0].evidence_ids == ["ev-0-0123456789ab"]


def test_one_code_fence_is_tolerated(fake_runner: FakeRunner) -> None:
    fenced = _answer(fake_runner, TASK, "fenced")
    assert fenced.startswith(b"```json\n")
    batch = validate_answer(fenced, CandidateDraftBatch, task_id="extract-1", binding=BINDING)
    assert batch.task_id == "extract-1"


@pytest.mark.parametrize("mode", ["malformed", "prose", "wrong-binding", "wrong-task"])
def test_bad_answers_are_refused(fake_runner: FakeRunner, mode: str) -> None:
    assert _refused(_answer(fake_runner, TASK, mode)) == "GM_RUNNER_OUTPUT_INVALID"


def test_other_shapes_are_refused() -> None:
    good = json.dumps({"taskId": "extract-1", "binding": BINDING, "candidates": []})
    validate_answer(good.encode(), CandidateDraftBatch, task_id="extract-1", binding=BINDING)
    for bad in (
        good + good,  # two documents
        "```json\n```json\n" + good + "\n```\n```",  # two fences
        "text\n```json\n" + good + "\n```",
        json.dumps({"taskId": "extract-1", "binding": BINDING, "candidates": [], "x": 1}),
        "[]",
        "",
    ):
        assert _refused(bad.encode()) == "GM_RUNNER_OUTPUT_INVALID", bad
    assert _refused(b"\xff\xfe") == "GM_RUNNER_OUTPUT_INVALID"


def test_adjudication_answer(fake_runner: FakeRunner) -> None:
    draft = {"candidateId": "c1", "content": "Use uv run pytest -q"}
    task = {
        "format": "git-memory-adjudication-task@v1",
        "taskId": "extract-1-adj",
        "binding": ADJUDICATION_BINDING,
        "drafts": [draft, {**draft, "candidateId": "c2", "content": " use UV run pytest -q"}],
    }
    out = _answer(fake_runner, task)
    result = validate_answer(
        out, AdjudicationResult, task_id="extract-1-adj", binding=ADJUDICATION_BINDING
    )
    actions = [(a.draft_ref, a.action, a.target_ids) for a in result.adjudications]
    assert actions == [("c1", "store", []), ("c2", "skip", ["c1"])]


def test_oversized_answer_hits_the_cap(fake_runner: FakeRunner) -> None:
    script = fake_runner("extraction")
    set_mode(script, "oversized")
    with pytest.raises(GitMemoryError) as caught:
        run_checked(command_profile(script), identify(str(script)), json.dumps(TASK).encode())
    assert caught.value.code == "GM_RUNNER_OUTPUT_LIMIT"


def test_parse_document_keeps_plain_json() -> None:
    assert parse_document(b'  {"a": 1}\n') == {"a": 1}
    assert parse_document(b"```\n[1]\n```") == [1]
