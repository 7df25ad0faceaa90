"""Crash safety and concurrency of `sessions sync` with real subprocesses and SQLite files."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from git_memory.database import applied_migrations
from git_memory.errors import GitMemoryError
from git_memory.failpoints import FAILPOINT_EXIT_STATUS
from git_memory.sessions import index
from git_memory.sessions.sync import sync
from tests.conftest import PROJECT_ROOT
from tests.repos import Repo
from tests.sessions.transcripts import claude_path, claude_turn, write_jsonl


def _corpus(claude_home: Path, cwd: str, files: int, turns: int) -> None:
    for n in range(files):
        records = []
        for t in range(turns):
            records += claude_turn(f"question {n}.{t}", f"answer {n}.{t}", cwd, f"m{t}")
        write_jsonl(claude_path(claude_home, f"session-{n:02d}"), records)


def _table_counts(state: Path) -> tuple[int, int, int, int]:
    with index.reader(state) as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM sessions), (SELECT count(*) FROM turns),"
            " (SELECT coalesce(sum(turns), 0) FROM sessions),"
            " (SELECT count(*) FROM turns_fts WHERE turns_fts MATCH 'question')"
        ).fetchone()
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    return tuple(row)  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("point", "committed"),
    [
        ("sessions.sync.file-written", 0),  # half of the first file written: nothing kept
        ("sessions.sync.after-file", 0),  # the first file whole, its batch not committed
        ("sessions.sync.before-commit", 0),
        ("sessions.sync.after-commit", 3),  # three small files make one batch
    ],
)
def test_killed_sync_leaves_a_consistent_index(
    gm_proc: Any, repo: Repo, hermetic_env: dict[str, Path], point: str, committed: int
) -> None:
    _corpus(hermetic_env["claude"], str(repo.root), files=3, turns=2)
    killed = gm_proc(["sessions", "sync"], cwd=repo.root, env={"GIT_MEMORY_FAILPOINT": point})
    assert killed.returncode == FAILPOINT_EXIT_STATUS, killed.stderr
    assert _table_counts(hermetic_env["state"]) == (committed, *[2 * committed] * 3)
    again = gm_proc(["sessions", "sync", "--format", "json"], cwd=repo.root)
    assert again.returncode == 0, again.stderr
    assert _table_counts(hermetic_env["state"]) == (3, 6, 6, 6)


@pytest.mark.parametrize(
    ("point", "committed"),
    [("sessions.sync.after-commit", 1), ("sessions.sync.file-written", 0)],
)
def test_a_crash_keeps_every_batch_committed_before_it(
    repo: Repo, hermetic_env: dict[str, Path], point: str, committed: int
) -> None:
    # Batches of one file each (`batch_seconds=0`): a kill after the first commit keeps
    # exactly that file, a kill inside the first file keeps nothing.
    _corpus(hermetic_env["claude"], str(repo.root), files=3, turns=2)
    state = hermetic_env["state"]
    code = (
        "import sys; from pathlib import Path; from git_memory.sessions.sync import sync; "
        "sync(Path(sys.argv[1]), batch_seconds=0)"
    )
    env = dict(os.environ, PYTHONPATH=str(PROJECT_ROOT), GIT_MEMORY_FAILPOINT=point)
    killed = subprocess.run(
        [sys.executable, "-c", code, str(state)], env=env, capture_output=True, check=False
    )
    assert killed.returncode == FAILPOINT_EXIT_STATUS, killed.stderr
    assert _table_counts(state) == (committed, *[2 * committed] * 3)
    sync(state, batch_seconds=0)
    assert _table_counts(state) == (3, 6, 6, 6)


def test_two_concurrent_syncs_leave_one_index(repo: Repo, hermetic_env: dict[str, Path]) -> None:
    _corpus(hermetic_env["claude"], str(repo.root), files=12, turns=5)
    env = dict(os.environ, PYTHONPATH=str(PROJECT_ROOT))
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "git_memory", "sessions", "sync", "--format", "json"],
            cwd=repo.root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [o[1] for o in outputs]
    import json

    news = sorted(json.loads(out)["new"] for out, _ in outputs)
    assert news == [0, 12]  # serialized: the second one found everything indexed
    assert _table_counts(hermetic_env["state"]) == (12, 60, 60, 60)


def test_index_is_private_and_wal(gm: Any, repo: Repo, hermetic_env: dict[str, Path]) -> None:
    _corpus(hermetic_env["claude"], str(repo.root), files=1, turns=1)
    gm(["sessions", "sync"], cwd=repo.root)
    path = hermetic_env["state"] / "sessions.sqlite3"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with index.open_index(hermetic_env["state"]) as db:
        assert db.scalar("PRAGMA journal_mode") == "wal"
        assert applied_migrations(db) == [name for name, _ in index.MIGRATIONS]
    assert not any(p.suffix == ".jsonl" for p in repo.root.rglob("*"))  # nothing in the worktree


def test_held_lock_times_out(hermetic_env: dict[str, Path]) -> None:
    state = hermetic_env["state"]
    state.mkdir(exist_ok=True)
    with FileLock(str(index.lock_path(state))), pytest.raises(GitMemoryError) as raised:
        sync(state, lock_timeout=0.2)
    assert raised.value.code == "GM_SESSIONS_LOCKED"


def test_newer_schema_is_refused_and_rebuild_recreates(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    _corpus(hermetic_env["claude"], str(repo.root), files=2, turns=1)
    gm(["sessions", "sync"], cwd=repo.root)
    with index.reader(hermetic_env["state"]) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES ('9999-future', 1)")
    refused = gm(["sessions", "list"], cwd=repo.root)
    assert refused.exit_code == 1
    assert "GM_SESSIONS_INDEX_NEWER" in refused.stderr
    rebuilt = gm(["sessions", "rebuild", "--format", "json"], cwd=repo.root)
    assert rebuilt.exit_code == 0, rebuilt.stderr
    assert (rebuilt.json()["rebuilt"], rebuilt.json()["new"]) == (True, 2)
    status = gm(["status", "--format", "json"], cwd=repo.root).json()
    assert status["counts"]["sessions"] == {"indexed": 2, "turns": 2, "worktree": 2}


def test_source_folder_import_and_missing_source(gm: Any, repo: Repo, tmp_path: Path) -> None:
    folder = tmp_path / "exported"
    write_jsonl(folder / "abc.jsonl", claude_turn("imported", "yes", str(repo.root), "m"))
    result = gm(["sessions", "sync", "--source", str(folder), "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0
    assert result.json()["turnsAdded"] == 1
    missing = gm(["sessions", "sync", "--source", str(tmp_path / "nope")], cwd=repo.root)
    assert missing.exit_code == 1
    assert "GM_SOURCE_NOT_FOUND" in missing.stderr


def test_progress_bar_only_on_a_terminal(repo: Repo, hermetic_env: dict[str, Path]) -> None:
    import pty

    _corpus(hermetic_env["claude"], str(repo.root), files=2, turns=1)
    env = dict(os.environ, PYTHONPATH=str(PROJECT_ROOT))
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "git_memory", "sessions", "sync"],
        cwd=repo.root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=follower,
    )
    out, _ = proc.communicate(timeout=120)
    os.close(follower)
    seen = os.read(leader, 65536).decode()
    os.close(leader)
    assert proc.returncode == 0
    assert "sessions sync [" in seen
    assert "2/2" in seen
    assert b"sessions sync [" not in out
    piped = subprocess.run(
        [sys.executable, "-m", "git_memory", "sessions", "sync"],
        cwd=repo.root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "sessions sync [" not in piped.stderr


def test_concurrent_first_use_creates_the_schema_once(repo: Repo, tmp_path: Path) -> None:
    for attempt in range(2):
        state = tmp_path / f"state{attempt}"
        env = dict(os.environ, PYTHONPATH=str(PROJECT_ROOT), GIT_MEMORY_HOME=str(state))
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "git_memory", "sessions", "list", "--all"],
                cwd=repo.root,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for _ in range(4)
        ]
        errors = [p.communicate(timeout=120)[1] for p in procs]
        assert [p.returncode for p in procs] == [0, 0, 0, 0], errors
        with index.open_index(state) as db:
            assert applied_migrations(db) == [name for name, _ in index.MIGRATIONS]
