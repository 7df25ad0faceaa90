"""memory-state.sqlite3: file mode, pragmas, migrations from empty and from each version."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from git_memory.database import applied_migrations
from git_memory.errors import GitMemoryError
from git_memory.store.db import StateDB, open_state, state_db_path
from git_memory.store.migrations import MIGRATIONS

ALL = [name for name, _ in MIGRATIONS]


def _tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()


def test_new_db_is_private_wal_and_fully_migrated(tmp_path: Path) -> None:
    db = open_state(tmp_path / "home")
    path = state_db_path(tmp_path / "home")
    assert path.stat().st_mode & 0o777 == 0o600
    assert db.scalar("PRAGMA journal_mode") == "wal"
    assert db.scalar("PRAGMA foreign_keys") == 1
    assert db.scalar("PRAGMA secure_delete") == 1
    assert applied_migrations(db) == ALL
    assert db.scalar("SELECT value FROM memory_state_meta WHERE key = 'memoryStateUuid'")
    with db.write():
        db.execute("INSERT INTO runner_conformance VALUES ('p', 'f', 't', 1, '{}')")
    for suffix in ("-wal", "-shm", ".lock"):
        side = Path(str(path) + suffix)
        if side.exists():
            assert side.stat().st_mode & 0o777 == 0o600
    db.close()
    expected = {
        "repository_bindings", "tasks", "submissions", "submission_conflicts", "chunks",
        "candidates", "candidate_fts", "candidate_projection", "approved_entries",
        "approved_fts", "approved_projection", "approved_sources", "evidence_refs",
        "assessments", "promotion_journal", "promotion_files", "consolidation_runs",
        "runner_conformance", "authorization_log", "runner_deliveries", "extraction_cursors",
        "plan_declines",
    }  # fmt: skip
    assert expected <= _tables(path)


def test_existing_file_with_loose_mode_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)
    StateDB(path).close()
    assert path.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("start", range(len(ALL)))
def test_migrates_from_each_earlier_version(tmp_path: Path, start: int) -> None:
    path = tmp_path / "m.sqlite3"
    old = StateDB(path, upto=ALL[start])
    assert applied_migrations(old) == ALL[: start + 1]
    with old.write():  # data written by the older version survives the upgrade
        old.execute(
            "INSERT INTO tasks (task_id, kind, repository_key, worktree_key, binding_json,"
            " created_at, updated_at) VALUES ('t1', 'extraction', 'r', 'w', '{}', 1, 1)"
        )
    old.close()
    new = StateDB(path)
    assert applied_migrations(new) == ALL
    assert new.scalar("SELECT kind FROM tasks WHERE task_id = 't1'") == "extraction"
    assert new.scalar("SELECT count(*) FROM schema_migrations") == len(ALL)
    new.close()
    assert StateDB(path).scalar("SELECT count(*) FROM schema_migrations") == len(ALL)


def test_db_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    db = StateDB(path)
    with db.write():
        db.execute("INSERT INTO schema_migrations VALUES ('9999-future', 1)")
    db.close()
    with pytest.raises(GitMemoryError) as caught:
        StateDB(path)
    assert caught.value.code == "GM_STATE_TOO_NEW"


def test_garbage_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(GitMemoryError) as caught:
        StateDB(path)
    assert caught.value.code == "GM_STATE_DB_UNUSABLE"


def test_symlinked_db_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.sqlite3"
    target.touch()
    (tmp_path / "m.sqlite3").symlink_to(target)
    with pytest.raises(GitMemoryError) as caught:
        StateDB(tmp_path / "m.sqlite3")
    assert caught.value.code == "GM_SYMLINK_REFUSED"


def test_nested_write_is_a_savepoint(tmp_path: Path) -> None:
    db = StateDB(tmp_path / "m.sqlite3")
    insert = (
        "INSERT INTO runner_conformance (profile, cli_version_fingerprint, test_version,"
        " passed_at) VALUES (?, 'f', 't', 1)"
    )

    def failing_inner() -> None:
        with db.write():
            db.execute(insert, ("inner",))
            raise RuntimeError("inner fails")

    def failing_outer() -> None:
        with db.write():
            db.execute(insert, ("lost",))
            raise RuntimeError("outer fails")

    with db.write():
        db.execute(insert, ("outer",))
        with pytest.raises(RuntimeError, match="inner"):
            failing_inner()
    profiles = [row[0] for row in db.rows("SELECT profile FROM runner_conformance")]
    assert profiles == ["outer"]
    with pytest.raises(RuntimeError, match="outer"):
        failing_outer()
    assert db.scalar("SELECT count(*) FROM runner_conformance") == 1


def test_a_held_writer_lock_is_a_clear_busy_error(tmp_path: Path) -> None:
    first = StateDB(tmp_path / "m.sqlite3")
    second = StateDB(tmp_path / "m.sqlite3")
    second.lock_timeout = 0.2
    with first.write():
        with pytest.raises(GitMemoryError) as caught, second.write():
            pass
        assert caught.value.code == "GM_STATE_BUSY"
    with second.write():  # free again once the first writer committed
        second.execute("INSERT INTO memory_state_meta VALUES ('k', 'v')")
    assert first.scalar("SELECT value FROM memory_state_meta WHERE key = 'k'") == "v"


def test_a_file_written_by_the_previous_store_code_opens(tmp_path: Path) -> None:
    # What the store's own migration runner wrote before the shared `Database`: its
    # bookkeeping table, then each migration's DDL with its named row.
    path = tmp_path / "m.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations"
        " (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)"
    )
    for name, ddl in MIGRATIONS[:3]:
        conn.executescript(ddl)
        conn.execute("INSERT INTO schema_migrations VALUES (?, strftime('%s'))", (name,))
    conn.execute("INSERT INTO memory_state_meta VALUES ('memoryStateUuid', 'old-uuid')")
    conn.close()
    db = StateDB(path)
    assert applied_migrations(db) == ALL
    assert db.scalar("SELECT value FROM memory_state_meta") == "old-uuid"
    db.close()
