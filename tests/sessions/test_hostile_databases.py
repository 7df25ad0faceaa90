"""Hostile OpenCode databases and a corrupt session index (issue 27, items 9 and 15): bad
rows are diagnostics and the rest is indexed; a view is never queried; the index points at
its rebuild."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from git_memory.database import DatabaseError, foreign_database
from tests.repos import Repo
from tests.sessions import agents
from tests.sessions.test_other_agents import _sessions, _sync
from tests.waiting import no_hang

BAD_TIMES = {"text": "yesterday", "infinite": float("inf"), "blob": b"\x00\x01"}


def _database(hermetic_env: dict[str, Path]) -> Path:
    agents.install_opencode(hermetic_env["xdg_data"])
    database = hermetic_env["xdg_data"] / "opencode" / "opencode.db"
    shutil.rmtree(database.parent / "storage")
    return database


def _clone_session(conn: sqlite3.Connection, new_id: str, updated: Any) -> None:
    """Another session like the fixture's one, with `updated` as its time_updated and that
    of its messages."""
    columns = [row[1] for row in conn.execute("PRAGMA table_info(session)")]
    listed = ", ".join(columns)
    picked = ", ".join("?" if c in ("id", "time_updated") else c for c in columns)
    values = [new_id if c == "id" else updated for c in columns if c in ("id", "time_updated")]
    conn.execute(f"INSERT INTO session ({listed}) SELECT {picked} FROM session LIMIT 1", values)
    conn.execute(
        "UPDATE message SET time_updated = ? WHERE id = (SELECT min(id) FROM message)",
        (updated,),
    )


@pytest.mark.parametrize("kind", sorted(BAD_TIMES))
def test_bad_time_updated_rows_are_diagnostics_and_the_rest_is_indexed(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path], kind: str
) -> None:
    database = _database(hermetic_env)
    with sqlite3.connect(database) as conn:
        _clone_session(conn, f"ses_bad_{kind}", BAD_TIMES[kind])
    conn.close()
    summary = _sync(gm, repo)
    assert summary["diagnostics"] >= 1
    assert "invalid-row" in {item["code"] for item in summary["examples"]}
    listed = _sessions(gm, repo, "--all", "--provider", "opencode")
    assert len(listed) == 2  # the fixture's session and the clone, both indexed
    # The fixture session keeps its 8 turns though one of its messages has a bad time.
    assert sorted(session["turns"] for session in listed) == [0, 8]


def test_a_session_view_over_an_endless_query_is_never_queried(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    database = _database(hermetic_env)
    with sqlite3.connect(database) as conn:
        conn.execute("ALTER TABLE session RENAME TO session_rows")
        conn.execute(
            "CREATE VIEW session AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1"
            " FROM r) SELECT 'ses_' || n AS id, NULL AS parent_id, n AS time_updated,"
            " '/' AS directory FROM r ORDER BY n DESC"
        )
    conn.close()
    with no_hang("a sync beside an endless view"):
        summary = _sync(gm, repo)
    assert [item["code"] for item in summary["examples"]] == ["unsafe-database"]
    assert "session" in summary["examples"][0]["message"]
    assert _sessions(gm, repo, "--all", "--provider", "opencode") == []


def test_a_foreign_query_past_its_time_budget_is_interrupted(tmp_path: Path) -> None:
    path = tmp_path / "slow.db"
    sqlite3.connect(path).close()
    endless = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT max(n) FROM r"
    # The query never ends by itself: only the budget's interruption can raise.
    with (
        no_hang("an endless foreign query"),
        foreign_database(str(path), budget=0.5) as conn,
        pytest.raises(DatabaseError),
    ):
        conn.execute(endless).fetchall()


def test_a_corrupt_session_index_points_at_the_rebuild(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    _sync(gm, repo)
    path = hermetic_env["state"] / "sessions.sqlite3"
    data = bytearray(path.read_bytes())
    data[:100] = b"\xff" * 100  # the header: no longer a database
    path.write_bytes(bytes(data))
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    result = gm(["sessions", "sync", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 1, result.stderr
    error = result.json()["error"]
    assert error["code"] == "GM_SESSIONS_INDEX_UNREADABLE"
    assert "git memory sessions rebuild" in error["next"]
    rebuilt = gm(["sessions", "rebuild", "--format", "json"], cwd=repo.root)
    assert rebuilt.exit_code == 0, rebuilt.stderr


def test_an_index_another_process_holds_locked_is_busy_not_unreadable(
    hermetic_env: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two syncs starting together: the one that waited past SQLite's busy timeout is told
    # that another sync runs, never to rebuild (which would delete a sound index).
    from git_memory import database
    from git_memory.errors import GitMemoryError
    from git_memory.sessions.index import index_path, open_index

    state = hermetic_env["state"]
    open_index(state).conn.close()
    holder = sqlite3.connect(str(index_path(state)), isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 100)
    try:
        with pytest.raises(GitMemoryError) as raised:
            open_index(state)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert raised.value.code == "GM_SESSIONS_LOCKED"
    open_index(state).conn.close()  # and once released, it opens


def test_a_new_index_is_switched_to_wal_by_one_opener_at_a_time(
    hermetic_env: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two syncs starting together on a new index: both read the empty file and both
    # switched it to WAL, and one of them could fail with "database is locked" (seen in a
    # run of two real syncs). The switch is a writer's step: an opener waits for the writer
    # lock, then sees the file as the lock's holder left it.
    import threading

    import filelock

    from git_memory import database
    from git_memory.sessions.index import MIGRATIONS, index_path, lock_path, open_index
    from tests.waiting import MIN_WAIT

    state = hermetic_env["state"]
    path = index_path(state)
    database.create_private(path)
    opened: list[object] = []
    waiting = threading.Event()  # the opener has come to the writer lock
    acquire = filelock.FileLock.acquire

    def noted(lock: Any, *args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is not threading.main_thread():
            waiting.set()
        return acquire(lock, *args, **kwargs)

    monkeypatch.setattr(filelock.FileLock, "acquire", noted)

    def open_it() -> None:
        try:
            with open_index(state) as db:
                opened.append((db.scalar("PRAGMA journal_mode"), database.applied_migrations(db)))
        except Exception as exc:  # reported below, in the test's thread
            opened.append(exc)

    holder = filelock.FileLock(str(lock_path(state)))
    holder.acquire()
    opener = threading.Thread(target=open_it)
    try:
        opener.start()
        assert waiting.wait(MIN_WAIT), opened
        assert path.stat().st_size == 0  # it left the file to the lock's holder
        assert not Path(str(path) + "-wal").exists()
        first = sqlite3.connect(str(path), isolation_level=None)
        first.execute("PRAGMA journal_mode = WAL")
        first.execute("CREATE TABLE first_was_here (x)")
        first.execute("BEGIN")
        first.execute("SELECT * FROM first_was_here").fetchall()
    finally:
        holder.release()
    opener.join(MIN_WAIT)
    first.close()
    assert opened == [("wal", [name for name, _ in MIGRATIONS])]


def test_a_lock_file_that_cannot_be_created_is_a_clear_error(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    # A read-only state directory, or something else in the lock file's place: the index
    # cannot be switched to WAL or written under its lock; the user is told why, no crash.
    from git_memory.sessions.index import index_path, lock_path

    state = hermetic_env["state"]
    state.mkdir(mode=0o700, exist_ok=True)
    index_path(state).write_bytes(b"")
    lock_path(state).mkdir()
    result = gm(["sessions", "list", "--all", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 1, result.stderr
    error = result.json()["error"]
    assert error["code"] == "GM_STATE_HOME_INVALID"
    assert "lock file" in error["problem"]
