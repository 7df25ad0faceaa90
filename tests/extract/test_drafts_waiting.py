"""Drafts whose adjudication task can no longer be answered are never left stranded.

An older version left drafts whose only adjudication task had gone stale: nothing could move
them. `status` names them, and recall (or staging the same draft batch again) reissues the
task against the current pool, so the drafts still reach review.
"""

from __future__ import annotations

from pathlib import Path

from git_memory.repo.binding import discover_worktree
from git_memory.store.session import open_workspace
from git_memory.store.tasks import mark_stale
from tests.conftest import run_cli
from tests.extract.conftest import SampleRepo
from tests.extract.flow import decisions, sample_batch, stage


def _strand(root: Path, task_id: str) -> None:
    """What an older version left: the batch's only adjudication task stale."""
    with open_workspace(discover_worktree(root), sync=False) as workspace:
        assert mark_stale(workspace.db, task_id, "result-set-digest-mismatch")


def test_stranded_drafts_are_named_and_recovered(sample_repo: SampleRepo, tmp_path: Path) -> None:
    (task,) = sample_repo.recall("--providers", "claude")["tasks"]
    batch = sample_batch(task)
    first = stage(sample_repo.root, batch, tmp_path).json()["adjudicationTask"]
    _strand(sample_repo.root, first["taskId"])

    shown = run_cli(["status", "--format", "json"], cwd=sample_repo.root).json()
    (waits,) = shown["counts"]["memory"]["adjudications"]
    assert waits == {
        "draftsOf": task["taskId"],
        "drafts": 2,
        "adjudicationTaskId": first["taskId"],
        "state": "stale",
    }
    text = run_cli(["status"], cwd=sample_repo.root).stdout
    assert f"2 drafts of {task['taskId']}: its adjudication task" in text
    assert "went stale; recall reissues it" in text

    # Answering the stale task is refused, and the refusal carries the reissued task.
    refused = stage(sample_repo.root, decisions(first), tmp_path).json()["error"]
    assert refused["code"] == "GM_TASK_STALE"
    reissued = refused["details"]["adjudicationTask"]
    assert reissued["taskId"] == refused["details"]["reissuedTaskId"] != first["taskId"]
    assert [d["candidateId"] for d in reissued["drafts"]] == [
        d["candidateId"] for d in first["drafts"]
    ]
    # Recall and a replayed draft stage hand out that same task, once per batch.
    listed = sample_repo.recall("--providers", "claude")["adjudicationTasks"]
    assert [t["taskId"] for t in listed] == [reissued["taskId"]]
    replayed = stage(sample_repo.root, batch, tmp_path).json()
    assert replayed["adjudicationTask"]["taskId"] == reissued["taskId"]

    decided = stage(sample_repo.root, decisions(reissued), tmp_path)
    assert decided.exit_code == 0, decided.stderr
    after = run_cli(["status", "--format", "json"], cwd=sample_repo.root).json()
    assert after["counts"]["memory"]["candidates"]["draft"] == 0
    assert "adjudications" not in after["counts"]["memory"]
    assert "adjudicationTasks" not in sample_repo.recall("--providers", "claude")
