"""A `stage` killed while it holds its task's lease: the lease dies with the process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from git_memory.failpoints import FAILPOINT_EXIT_STATUS
from git_memory.repo.binding import discover_worktree
from git_memory.store import tasks
from git_memory.store.db import open_state
from tests.conftest import run_subprocess
from tests.extract.conftest import SampleRepo
from tests.extract.flow import sample_batch, stage


def _claude_task(sample_repo: SampleRepo) -> dict[str, Any]:
    found = sample_repo.recall("--providers", "claude")["tasks"]
    assert len(found) == 1
    task: dict[str, Any] = found[0]
    return task


def _offered(sample_repo: SampleRepo) -> list[str]:
    return [t["taskId"] for t in sample_repo.recall("--providers", "claude")["tasks"]]


def _stored(sample_repo: SampleRepo, task_id: str) -> tasks.Task:
    with open_state(discover_worktree(sample_repo.root).state_home) as db:
        found = tasks.get_task(db, task_id)
    assert found is not None
    return found


def test_killed_stage_does_not_keep_its_task_leased(
    sample_repo: SampleRepo, tmp_path: Path
) -> None:
    task = _claude_task(sample_repo)
    request = tmp_path / "batch.json"
    request.write_text(json.dumps(sample_batch(task)))
    killed = run_subprocess(
        ["stage", "--request", str(request), "--format", "json"],
        cwd=sample_repo.root,
        env={"GIT_MEMORY_FAILPOINT": "store.claim.after-commit"},
    )
    assert killed.returncode == FAILPOINT_EXIT_STATUS, killed.stderr
    stored = _stored(sample_repo, task["taskId"])
    assert stored.status == "claimed"
    assert stored.lease_expires_at is not None
    assert not tasks.lease_is_live(stored)
    # recall offers it again, and the same agent re-staging is not refused as claimed.
    assert _offered(sample_repo) == [task["taskId"]]
    again = stage(sample_repo.root, sample_batch(task), tmp_path)
    assert again.exit_code == 0, again.stdout + again.stderr
    assert again.json()["status"] == "adjudication-required"


def test_a_live_holder_keeps_its_lease(sample_repo: SampleRepo, tmp_path: Path) -> None:
    task = _claude_task(sample_repo)
    state_home = discover_worktree(sample_repo.root).state_home
    # Another live process claims the task and holds it.
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path\n"
            "from git_memory.store.db import open_state\n"
            "from git_memory.store.tasks import claim_task\n"
            "with open_state(Path(sys.argv[1])) as db:\n"
            "    claim_task(db, sys.argv[2], holder='other-agent', lease_ms=300000)\n"
            "print('claimed', flush=True)\n"
            "sys.stdin.read()\n",
            str(state_home),
            task["taskId"],
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "claimed"
        assert tasks.lease_is_live(_stored(sample_repo, task["taskId"]))
        assert _offered(sample_repo) == []
        refused = stage(sample_repo.root, sample_batch(task), tmp_path)
        assert refused.json()["error"]["code"] == "GM_TASK_CLAIMED"
    finally:
        holder.kill()
        holder.wait()
    # The holder is gone: the task is offered and stageable at once.
    assert _offered(sample_repo) == [task["taskId"]]
    assert stage(sample_repo.root, sample_batch(task), tmp_path).exit_code == 0
