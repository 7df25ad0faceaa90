"""`git memory synthesize`: the task, incremental baselines, --if-due, --full, pending runs."""

from __future__ import annotations

from pathlib import Path

from git_memory.contracts.consolidation import ConsolidationTask
from tests.conftest import run_cli
from tests.consolidate.flow_support import (
    cli_json,
    operation,
    patch,
    scene_content,
    stage_doc,
    write_entries,
    write_entry,
    write_scene,
)
from tests.repos import Repo


def _task(root: Path, *flags: str) -> dict:
    return cli_json(["synthesize", *flags], root)


def test_task_binds_entries_scenes_and_doctrine(repo: Repo) -> None:
    ids = write_entries(repo.root, 3)
    write_scene(repo.root, "release", "Release flow", heat=4)
    (repo.root / ".memory" / "doctrine.md").write_text("## Doctrine\n- Review before merge.\n")
    before = repo.snapshot()
    synthesis = _task(repo.root)
    task = ConsolidationTask.model_validate(synthesis["task"])
    assert [e.entry_id for e in task.entries] == sorted(ids)
    assert [(s.name, s.heat) for s in task.scenes] == [("release", 4)]
    assert task.doctrine is not None
    assert "Review before merge" in task.doctrine.content
    assert task.task_id == task.binding.expected_task_id()
    assert task.binding.replay.mode == "incremental"
    assert task.binding.replay.after_successful_run_id is None
    assert task.binding.doctrine_digest == task.doctrine.content_digest
    assert (task.policy.max_scenes, task.policy.merge_preferred_at) == (15, 12)
    assert synthesis["entryCount"] == 3
    assert synthesis["guidance"]["nextAction"] == "stage"
    assert _task(repo.root)["task"]["taskId"] == task.task_id  # same state, same task
    assert repo.snapshot() == before


def test_if_due_waits_for_twenty_new_entries(repo: Repo) -> None:
    write_entries(repo.root, 19)
    result = run_cli(["synthesize", "--if-due"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    assert "not due" in result.stdout
    assert "19" in result.stdout
    assert _task(repo.root, "--if-due")["task"] is None
    write_entry(repo.root, "rule-20", "Always tag releases from main.")
    due = _task(repo.root, "--if-due")
    assert due["task"] is not None
    assert len(due["task"]["entries"]) == 20


def test_if_due_and_full_exclude_each_other(repo: Repo) -> None:
    write_entries(repo.root, 1)
    result = run_cli(["synthesize", "--if-due", "--full"], cwd=repo.root)
    assert result.exit_code == 2
    assert "GM_USAGE" in result.stderr


def test_nothing_approved_says_so(repo: Repo) -> None:
    synthesis = _task(repo.root)
    assert synthesis["task"] is None
    assert "No new or changed" in synthesis["note"]


def test_incremental_after_a_successful_run_and_full(repo: Repo, tmp_path: Path) -> None:
    ids = write_entries(repo.root, 3)
    task = _task(repo.root)["task"]
    staged = stage_doc(repo.root, patch(task, []), tmp_path)  # a no-op run is successful
    assert staged.exit_code == 0, staged.stdout
    assert "No new or changed" in _task(repo.root)["note"]
    status = cli_json(["status"], repo.root)["counts"]["consolidation"]
    assert status["runs"]["no_op"] == 1
    assert status["lastSuccessfulRunId"] == "run-" + task["taskId"]
    write_entry(repo.root, "rule-2", "Always run the release check twice.")
    write_entry(repo.root, "rule-9", "Never tag on Fridays.")
    later = ConsolidationTask.model_validate(_task(repo.root)["task"])
    assert [e.entry_id for e in later.entries] == ["rule-2", "rule-9"]
    assert later.binding.replay.after_successful_run_id == "run-" + task["taskId"]
    full = ConsolidationTask.model_validate(_task(repo.root, "--full")["task"])
    assert full.binding.replay.mode == "full"
    assert [e.entry_id for e in full.entries] == sorted([*ids, "rule-9"])
    assert full.task_id != later.task_id


def test_a_pending_run_blocks_a_new_task(repo: Repo, tmp_path: Path) -> None:
    ids = write_entries(repo.root, 2)
    task = _task(repo.root)["task"]
    content = scene_content("Release flow", ["check then tag"])
    staged = stage_doc(
        repo.root, patch(task, [operation("create", "release", content, ids)]), tmp_path
    )
    assert staged.exit_code == 0, staged.stdout
    blocked = _task(repo.root, "--full")
    assert blocked["task"] is None
    assert blocked["pendingRunId"] == "run-" + task["taskId"]
    status = cli_json(["status"], repo.root)["counts"]["consolidation"]
    assert status["pendingRunId"] == "run-" + task["taskId"]
    assert status["runs"]["pending_review"] == 1
    candidate = staged.json()["candidates"][0]
    discarded = run_cli(["discard", candidate["candidateId"], "--revision", "1"], cwd=repo.root)
    assert discarded.exit_code == 0, discarded.stderr + discarded.stdout
    again = _task(repo.root)  # the discarded run went stale: a new task is handed out
    assert again["task"] is not None
    assert again["pendingRunId"] is None


def test_a_pending_run_outdated_by_new_memory_is_retired(repo: Repo, tmp_path: Path) -> None:
    ids = write_entries(repo.root, 2)
    task = _task(repo.root)["task"]
    content = scene_content("Release flow", ["check then tag"])
    staged = stage_doc(
        repo.root, patch(task, [operation("create", "release", content, ids)]), tmp_path
    )
    assert staged.exit_code == 0, staged.stdout
    write_entry(repo.root, "rule-3", "Never tag on Fridays.")
    fresh = _task(repo.root)
    assert fresh["task"] is not None  # the old run can never be promoted: it no longer blocks
    assert fresh["task"]["taskId"] != task["taskId"]
    status = cli_json(["status"], repo.root)["counts"]["consolidation"]
    assert status["runs"]["stale"] == 1
    assert status["pendingRunId"] is None
