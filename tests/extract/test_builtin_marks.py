"""`recall` marks on each task what the builtin extractor already drafts from its chunk with
observed evidence (`builtinDrafts`), so the agent copies it instead of deriving it again
(issue 41)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.extract.conftest import DAY1, SampleRepo, build_sample_repo
from tests.extract.flow import decisions, draft_batch, stage
from tests.sessions.transcripts import (
    claude_assistant,
    claude_path,
    claude_user,
    tool_result,
    write_jsonl,
)

LATER = "77777777-2222-4333-8444-555555555555"
PYTEST = "`uv run pytest` runs the tests (worked in 1 session)."


@pytest.fixture
def sample_repo(tmp_path: Path, hermetic_env: dict[str, Path]) -> SampleRepo:
    return build_sample_repo(tmp_path, hermetic_env)


def _task_with(document: dict[str, Any], words: str) -> dict[str, Any]:
    return next(t for t in document["tasks"] if words in t["chunk"]["transcript"])


def _contents(task: dict[str, Any]) -> list[str]:
    return [draft["content"] for draft in task.get("builtinDrafts") or []]


def _stage_as_is(sample_repo: SampleRepo, task: dict[str, Any], tmp: Path) -> None:
    """Stage the task's builtinDrafts as the agent's own batch, then store them."""
    staged = stage(sample_repo.root, draft_batch(task, task["builtinDrafts"]), tmp)
    assert staged.exit_code == 0, staged.stderr + staged.stdout
    waiting = staged.json()["adjudicationTask"]
    stored = stage(sample_repo.root, decisions(waiting), tmp)
    assert stored.exit_code == 0, stored.stderr + stored.stdout


def _review(sample_repo: SampleRepo) -> list[dict[str, Any]]:
    result = run_cli(["review", "--format", "json"], cwd=sample_repo.root)
    items: list[dict[str, Any]] = result.json()["items"]
    return items


def test_recall_marks_what_the_builtin_finds_with_observed_evidence(
    sample_repo: SampleRepo, tmp_path: Path
) -> None:
    document = sample_repo.recall("--limit", "8")
    claude = _task_with(document, "uv run pytest -q")
    lint = "`uv run ruff check .` lints the code (worked in 1 session)."
    assert _contents(claude) == [PYTEST, lint]
    codex = _task_with(document, "make integration")
    assert any(c.startswith("Trap: `make integration` fails") for c in _contents(codex))
    turn_ids = {e["evidenceId"] for e in claude["chunk"]["turnEvidence"]}
    for draft in claude["builtinDrafts"]:
        for statement in draft["statements"]:
            assert set(statement["evidenceIds"]) <= turn_ids, "cites this task's own turns"
    # A rule a person typed has no observed evidence: the agent reads it, it is not marked.
    assert not any("uv run` instead" in c for c in _contents(claude))
    # The mark is not an input of the task: the task is the same task with or without it.
    assert claude["taskId"] == "extract-" + claude["binding"]["sourceInputDigest"]
    assert any("builtinDrafts" in rule for rule in document["guidance"]["rules"])

    _stage_as_is(sample_repo, claude, tmp_path)
    reviewed = {item["content"]: item for item in _review(sample_repo)}
    assert PYTEST in reviewed, "copied as they are, they reach review"
    evidence = reviewed[PYTEST]["statements"][0]["evidence"]
    quotes = [quote["text"] for item in evidence for quote in item.get("quotes") or []]
    assert "12 passed in 0.41s" in quotes, "the observed result is shown where it came from"
    # Word for word what the host's renderer wrote from the chunk: the host's typed fact, as
    # the builtin runner would have staged it.
    assert reviewed[PYTEST]["statements"][0]["claimSupport"] == "typed-fact"


def test_only_a_copy_as_handed_out_is_a_typed_fact(sample_repo: SampleRepo, tmp_path: Path) -> None:
    claude = _task_with(sample_repo.recall("--limit", "8"), "uv run pytest -q")
    pytest_draft, lint_draft = (json.loads(json.dumps(d)) for d in claude["builtinDrafts"])
    # The agent's own words for the same fact, and the lint fact cited at another turn.
    pytest_draft["statements"][0]["text"] = "`uv run pytest` runs the tests, and they all pass."
    other = next(
        e["evidenceId"]
        for e in claude["chunk"]["turnEvidence"]
        if e["evidenceId"] not in lint_draft["statements"][0]["evidenceIds"]
    )
    lint_draft["statements"][0]["evidenceIds"] = [other]
    staged = stage(sample_repo.root, draft_batch(claude, [pytest_draft, lint_draft]), tmp_path)
    assert staged.exit_code == 0, staged.stderr + staged.stdout
    decided = stage(sample_repo.root, decisions(staged.json()["adjudicationTask"]), tmp_path)
    assert decided.exit_code == 0, decided.stderr + decided.stdout
    support = {i["content"]: i["statements"][0]["claimSupport"] for i in _review(sample_repo)}
    assert set(support.values()) == {"unverified"}, support
    assert len(support) == 2


def test_what_the_worktree_holds_is_not_marked_again(
    sample_repo: SampleRepo, hermetic_env: dict[str, Path], tmp_path: Path
) -> None:
    first = sample_repo.recall("--limit", "8")
    _stage_as_is(sample_repo, _task_with(first, "uv run pytest -q"), tmp_path)
    cwd = str(sample_repo.root)
    calls = [
        {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "uv run pytest"}},
        {"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "uv run mypy src"}},
    ]
    later = [claude_user("Run the tests and the type check.", cwd)]
    later += [claude_assistant([calls[0]], cwd, "m1"), tool_result("t1", "12 passed", cwd)]
    later += [
        claude_assistant([calls[1]], cwd, "m2"),
        tool_result("t2", "Success: no issues found in 3 source files", cwd),
    ]
    for number, record in enumerate(later):
        record.update(sessionId=LATER, timestamp=f"{DAY1.isoformat()}T12:00:{number:02d}.000Z")
    write_jsonl(claude_path(hermetic_env["claude"], LATER), later, time.time() - 3600)
    again = sample_repo.recall("--limit", "8")
    task = _task_with(again, "uv run mypy src")
    marked = _contents(task)
    assert all("uv run pytest" not in c for c in marked), marked
    assert any("uv run mypy src" in c for c in marked)
