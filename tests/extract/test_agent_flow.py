"""The agent-native flow from a real session to quarantined, reviewable candidates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.extract.conftest import SampleRepo
from tests.extract.flow import candidate, decisions, draft_batch, sample_batch, stage


def _claude_task(sample_repo: SampleRepo) -> dict[str, Any]:
    tasks = sample_repo.recall("--providers", "claude")["tasks"]
    assert len(tasks) == 1
    return tasks[0]


def test_agent_goes_from_session_to_quarantine(sample_repo: SampleRepo, tmp_path: Path) -> None:
    before = sample_repo.repo.snapshot()
    task = _claude_task(sample_repo)
    first = stage(sample_repo.root, sample_batch(task), tmp_path)
    assert first.exit_code == 0, first.stderr
    staged = first.json()
    assert staged["status"] == "adjudication-required"
    adjudication = staged["adjudicationTask"]
    assert [d["candidateId"] for d in adjudication["drafts"]] == [
        f"{task['taskId']}-c1",
        f"{task['taskId']}-c2",
    ]
    # sibling drafts see each other in recall; a draft never sees itself
    for recall_set in adjudication["recallSets"]:
        assert recall_set["draftRef"] not in [hit["id"] for hit in recall_set["ordered"]]
    second = stage(sample_repo.root, decisions(adjudication), tmp_path)
    assert second.exit_code == 0, second.stderr
    result = second.json()
    assert result["status"] == "staged"
    assert {c["status"] for c in result["candidates"]} == {"quarantined"}
    review = run_cli(["review", "--format", "json"], cwd=sample_repo.root).json()
    assert review["format"] == "git-memory-review@v1"
    assert len(review["items"]) == 2
    statement = review["items"][0]["statements"][0]
    assert statement["claimSupport"] == "unverified"
    assert statement["provenanceStrength"] == "direct"
    assert statement["evidence"][0]["excerpt"].startswith("user: Run the test suite")
    assert len(statement["statementTextDigest"]) == 64
    lint_item = review["items"][1]["statements"][0]
    assert lint_item["provenanceStrength"] == "observed"
    assert lint_item["evidence"][0]["display"] == "path src/app.py"
    assert sample_repo.repo.snapshot() == before


def test_identical_bytes_replay_and_different_bytes_conflict(
    sample_repo: SampleRepo, tmp_path: Path
) -> None:
    task = _claude_task(sample_repo)
    batch = sample_batch(task)
    first = stage(sample_repo.root, batch, tmp_path).json()
    again = stage(sample_repo.root, batch, tmp_path)
    assert again.exit_code == 0
    assert again.json()["adjudicationTask"] == first["adjudicationTask"]
    changed = json.loads(json.dumps(batch))
    changed["candidates"][0]["content"] = "Something else entirely."
    conflict = stage(sample_repo.root, changed, tmp_path)
    assert conflict.exit_code == 1
    assert conflict.json()["error"]["code"] == "GM_SUBMISSION_CONFLICT"


def test_fabricated_evidence_rejects_only_that_candidate(
    sample_repo: SampleRepo, tmp_path: Path
) -> None:
    task = _claude_task(sample_repo)
    batch = sample_batch(task)
    batch["candidates"][1]["statements"][0]["evidenceIds"] = ["ev-99-0123456789ab"]
    staged = stage(sample_repo.root, batch, tmp_path).json()
    assert len(staged["candidates"]) == 1
    assert staged["rejected"] == [
        {"candidate": 2, "reason": "unknown-evidence-id", "detail": "ev-99-0123456789ab"}
    ]
    only = draft_batch(task, [batch["candidates"][1]])
    refused = stage(sample_repo.root, only, tmp_path)
    assert refused.json()["error"]["code"] in ("GM_SUBMISSION_CONFLICT",)


def test_all_fabricated_is_refused_and_changes_nothing(
    sample_repo: SampleRepo, tmp_path: Path
) -> None:
    task = _claude_task(sample_repo)
    batch = draft_batch(task, [candidate("x", [("claim", ["ev-1-000000000000"])])])
    refused = stage(sample_repo.root, batch, tmp_path)
    assert refused.exit_code == 1
    error = refused.json()["error"]
    assert error["code"] == "GM_NO_CITABLE_STATEMENTS"
    assert error["details"]["rejected"][0]["reason"] == "unknown-evidence-id"
    # the claim was given back: a corrected batch stages at once
    fixed = stage(sample_repo.root, sample_batch(task), tmp_path)
    assert fixed.exit_code == 0, fixed.stderr


def test_duplicate_statement_ids_reject_the_candidate(
    sample_repo: SampleRepo, tmp_path: Path
) -> None:
    task = _claude_task(sample_repo)
    batch = sample_batch(task)
    statements = batch["candidates"][0]["statements"]
    statements.append(dict(statements[0]))
    staged = stage(sample_repo.root, batch, tmp_path).json()
    assert [c["candidateId"] for c in staged["candidates"]] == [f"{task['taskId']}-c2"]


def test_wrong_binding_is_refused(sample_repo: SampleRepo, tmp_path: Path) -> None:
    task = _claude_task(sample_repo)
    batch = sample_batch(task)
    batch["binding"]["promptVersion"] = "memory-prompts@1"
    refused = stage(sample_repo.root, batch, tmp_path)
    assert refused.json()["error"]["code"] == "GM_BINDING_DRIFT"
    unknown = dict(batch, taskId="extract-" + "0" * 64)
    assert stage(sample_repo.root, unknown, tmp_path).json()["error"]["code"] == (
        "GM_TASK_NOT_FOUND"
    )


def test_turn_changed_between_recall_and_stage(sample_repo: SampleRepo, tmp_path: Path) -> None:
    import os
    import time

    task = _claude_task(sample_repo)
    path = sample_repo.samples.claude
    text = path.read_text().replace("12 passed in 0.41s", "12 failed in 0.41s")
    path.write_text(text)
    idle = time.time() - 3600
    os.utime(path, (idle, idle))
    assert run_cli(["sessions", "sync"], cwd=sample_repo.root).exit_code == 0
    refused = stage(sample_repo.root, sample_batch(task), tmp_path)
    error = refused.json()["error"]
    assert error["code"] == "GM_TASK_STALE"
    assert error["details"]["changedTurns"] == [0]
    again = stage(sample_repo.root, sample_batch(task), tmp_path)
    assert again.json()["error"]["code"] == "GM_TASK_STALE"


def test_stage_refuses_unknown_documents(sample_repo: SampleRepo, tmp_path: Path) -> None:
    refused = stage(sample_repo.root, {"format": "git-memory-nothing@v1"}, tmp_path)
    assert refused.json()["error"]["code"] == "GM_REQUEST_INVALID"


@pytest.mark.parametrize("action", ["skip", "merge"])
def test_duplicate_drafts_across_chunks_are_caught(
    sample_repo: SampleRepo, tmp_path: Path, action: str
) -> None:
    """A second task drafting the same memory sees the first one in recall."""
    tasks = sample_repo.recall("--limit", "8")["tasks"]
    claude = next(t for t in tasks if "uv run pytest" in t["chunk"]["transcript"])
    codex = next(t for t in tasks if t is not claude)
    first = stage(sample_repo.root, sample_batch(claude), tmp_path).json()
    stage(sample_repo.root, decisions(first["adjudicationTask"]), tmp_path)
    turn = codex["chunk"]["turnEvidence"][0]["evidenceId"]
    duplicate = draft_batch(
        codex,
        [
            candidate(
                "Run the test suite with `uv run pytest -q`.",
                [("The test suite runs with `uv run pytest -q`.", [turn])],
            )
        ],
    )
    staged = stage(sample_repo.root, duplicate, tmp_path).json()
    adjudication = staged["adjudicationTask"]
    hits = adjudication["recallSets"][0]["ordered"]
    target = hits[0]["id"]
    assert target == f"{claude['taskId']}-c1"
    ref = adjudication["drafts"][0]["candidateId"]
    fields = None if action == "skip" else {"content": "Run the tests: `uv run pytest -q`."}
    result = stage(
        sample_repo.root,
        decisions(
            adjudication,
            **{
                ref: {
                    "draftRef": ref,
                    "action": action,
                    "targetIds": [target],
                    "mergedFields": fields,
                }
            },
        ),
        tmp_path,
    )
    assert result.exit_code == 0, result.stderr
    review = run_cli(["review", "--format", "json"], cwd=sample_repo.root).json()
    ids = [item["candidateId"] for item in review["items"]]
    if action == "skip":
        assert ref not in ids
        assert target in ids
    else:
        assert target not in ids
        merged = next(item for item in review["items"] if item["candidateId"] == ref)
        assert merged["content"] == "Run the tests: `uv run pytest -q`."
        assert len(merged["statements"]) == 2, "a merge keeps the union of statements"


def test_adjudication_must_decide_every_draft_once(sample_repo: SampleRepo, tmp_path: Path) -> None:
    task = _claude_task(sample_repo)
    adjudication = stage(sample_repo.root, sample_batch(task), tmp_path).json()["adjudicationTask"]
    result = decisions(adjudication)
    result["adjudications"] = result["adjudications"][:1]
    refused = stage(sample_repo.root, result, tmp_path)
    error = refused.json()["error"]
    assert error["code"] == "GM_ADJUDICATION_INVALID"
    assert error["details"]["missing"] == [adjudication["drafts"][1]["candidateId"]]
    ref = adjudication["drafts"][0]["candidateId"]
    bad_target = decisions(
        adjudication,
        **{
            ref: {
                "draftRef": ref,
                "action": "update",
                "targetIds": ["no-such-entry"],
                "mergedFields": {"content": "x"},
            }
        },
    )
    assert stage(sample_repo.root, bad_target, tmp_path).json()["error"]["code"] == (
        "GM_ADJUDICATION_INVALID"
    )
    # nothing was applied: both drafts are still drafts, and a correct result goes through
    good = stage(sample_repo.root, decisions(adjudication), tmp_path)
    assert good.exit_code == 0, good.stderr


def test_update_of_an_approved_draft_target_is_refused(
    sample_repo: SampleRepo, tmp_path: Path
) -> None:
    task = _claude_task(sample_repo)
    adjudication = stage(sample_repo.root, sample_batch(task), tmp_path).json()["adjudicationTask"]
    first, second = (d["candidateId"] for d in adjudication["drafts"])
    merge_into_draft = decisions(
        adjudication,
        **{
            first: {
                "draftRef": first,
                "action": "merge",
                "targetIds": [second],
                "mergedFields": {"content": "x"},
            }
        },
    )
    refused = stage(sample_repo.root, merge_into_draft, tmp_path)
    assert refused.json()["error"]["code"] == "GM_ADJUDICATION_INVALID"


def test_corrupt_private_record_is_a_clear_error(
    sample_repo: SampleRepo, tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    task = _claude_task(sample_repo)
    record = hermetic_env["state"] / "artifacts" / "agent-recalls" / f"{task['taskId']}.json"
    record.write_text("{not json")
    refused = stage(sample_repo.root, sample_batch(task), tmp_path)
    assert refused.json()["error"]["code"] == "GM_ARTIFACT_CORRUPT"


def test_a_private_record_of_the_wrong_shape_is_corrupt_too(
    sample_repo: SampleRepo, tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    task = _claude_task(sample_repo)
    record = hermetic_env["state"] / "artifacts" / "agent-recalls" / f"{task['taskId']}.json"
    document = json.loads(record.read_text())
    del document["catalog"][0]["strength"]  # valid JSON, but not a record this host wrote
    record.write_text(json.dumps(document))
    refused = stage(sample_repo.root, sample_batch(task), tmp_path)
    assert refused.json()["error"]["code"] == "GM_ARTIFACT_CORRUPT"


def test_unreadable_request_file(sample_repo: SampleRepo, tmp_path: Path) -> None:
    result = run_cli(["stage", "--request", str(tmp_path / "missing.json")], cwd=sample_repo.root)
    assert result.exit_code == 1
    assert "[GM_REQUEST_UNREADABLE]" in result.stderr


def test_a_statement_reworded_after_review_is_refused(
    sample_repo: SampleRepo, tmp_path: Path
) -> None:
    from tests.review_helpers import prepare_document

    task = _claude_task(sample_repo)
    adjudication = stage(sample_repo.root, sample_batch(task), tmp_path).json()["adjudicationTask"]
    stage(sample_repo.root, decisions(adjudication), tmp_path)
    review = run_cli(["review", "--format", "json"], cwd=sample_repo.root).json()
    document = prepare_document(review["items"][:1])
    # the agent shows the human one wording and confirms another: the text digest differs
    from git_memory.contracts.canonical import sha256_hex

    document["candidates"][0]["statements"][0]["statementTextDigest"] = sha256_hex(
        b"`uv run pytest -q` is optional."
    )
    request = tmp_path / "prepare.json"
    request.write_text(json.dumps(document))
    refused = run_cli(
        ["prepare", "--request", str(request), "--format", "json"], cwd=sample_repo.root
    )
    assert refused.exit_code == 1
    assert refused.json()["error"]["code"] == "GM_CONFIRMATION_DRIFT"
    again = run_cli(["review", "--format", "json"], cwd=sample_repo.root).json()
    assert again == review, "a refused prepare changes nothing"


def test_a_staged_draft_reaches_review_without_home_paths_or_user_names(
    sample_repo: SampleRepo, tmp_path: Path
) -> None:
    task = _claude_task(sample_repo)
    turn0 = task["chunk"]["turnEvidence"][0]["evidenceId"]
    home = str(Path.home())
    drafted = candidate(
        f"Caches live in /Users/alice/Library/Caches/app and {home}/.cache/app; ask alice.",
        [("Run `pytest` from C:\\Users\\alice\\src\\app.", [turn0])],
    )
    first = stage(sample_repo.root, draft_batch(task, [drafted]), tmp_path)
    assert first.exit_code == 0, first.stderr
    second = stage(sample_repo.root, decisions(first.json()["adjudicationTask"]), tmp_path)
    assert second.exit_code == 0, second.stderr
    (item,) = run_cli(["review", "--format", "json"], cwd=sample_repo.root).json()["items"]
    assert item["content"] == "Caches live in ~/Library/Caches/app and ~/.cache/app; ask <user>."
    assert item["statements"][0]["text"] == "Run `pytest` from ~\\src\\app."
