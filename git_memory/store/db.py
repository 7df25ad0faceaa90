"""`memory-state.sqlite3`: opening, pragmas, writer transactions and the writer lock.

This is the only module of the store that imports sqlite3. The file is 0600 in the private
state home, in WAL mode with `foreign_keys` and `secure_delete` on. Writers take a filelock
first (cross-process serialization; lock order: the sessions index lock, then this one) and
then `BEGIN IMMEDIATE`, so two writers never interleave and a reader always sees a committed
snapshot. `StateDB.write()` nests: an inner `write()` is a SAVEPOINT of the outer transaction,
so flows compose several store calls into one atomic transaction.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from git_memory.errors import GitMemoryError
from git_memory.failpoints import failpoint
from git_memory.paths import MEMORY_STATE_DB, PRIVATE_FILE_MODE, ensure_private_dir

Row = sqlite3.Row
LOCK_SUFFIX = ".lock"
BUSY_TIMEOUT_MS = 30_000
WRITER_LOCK_TIMEOUT_S = 60.0


def now_ms() -> int:
    """Wall-clock milliseconds since the epoch (leases and row timestamps)."""
    return time.time_ns() // 1_000_000


def state_db_path(state_home: Path) -> Path:
    """Where `memory-state.sqlite3` lives in a state home."""
    return state_home / MEMORY_STATE_DB


def _create_private(path: Path) -> None:
    """Create the DB file 0600 before sqlite does (sqlite would use the umask)."""
    ensure_private_dir(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, PRIVATE_FILE_MODE)
    except FileExistsError:
        if path.is_symlink():
            raise GitMemoryError(
                "GM_SYMLINK_REFUSED", f"state file {path.name!r} is a symbolic link"
            ) from None
        if path.stat().st_mode & 0o777 != PRIVATE_FILE_MODE:
            os.chmod(path, PRIVATE_FILE_MODE)
        return
    os.close(fd)


class StateDB:
    """An open memory-state database (one connection, used from one thread)."""

    def __init__(self, path: Path, *, migrate: bool = True, upto: str | None = None) -> None:
        from filelock import FileLock

        self.path = path
        _create_private(path)
        self._lock = FileLock(
            str(path) + LOCK_SUFFIX, timeout=WRITER_LOCK_TIMEOUT_S, mode=PRIVATE_FILE_MODE
        )
        self.lock_timeout = WRITER_LOCK_TIMEOUT_S
        self._depth = 0
        self._savepoints = 0
        try:
            self.conn = sqlite3.connect(
                str(path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000
            )
        except sqlite3.Error as exc:
            raise _unreadable(path, exc) from exc
        self.conn.row_factory = sqlite3.Row
        try:
            self._pragmas()
            if migrate:
                from git_memory.store.migrations import migrate as run_migrations

                run_migrations(self, upto=upto)
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise _unreadable(path, exc) from exc
        except BaseException:
            self.conn.close()
            raise
        for suffix in ("-wal", "-shm"):
            side = Path(str(path) + suffix)
            if side.exists() and side.stat().st_mode & 0o777 != PRIVATE_FILE_MODE:
                os.chmod(side, PRIVATE_FILE_MODE)

    def _pragmas(self) -> None:
        self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        mode = self.conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise GitMemoryError("GM_STATE_DB_UNUSABLE", "memory-state cannot use WAL mode")
        self.conn.execute("PRAGMA foreign_keys = ON")
        self.conn.execute("PRAGMA secure_delete = ON")
        self.conn.execute("PRAGMA synchronous = NORMAL")

    # -- transactions -------------------------------------------------------------------

    @contextlib.contextmanager
    def write(self, boundary: str | None = None) -> Iterator[StateDB]:
        """A writer transaction: filelock, then `BEGIN IMMEDIATE`; nested calls are savepoints.

        Commits when the block ends, rolls back (and re-raises) on any exception. `boundary`
        names the transaction for crash tests: failpoints `<boundary>.before-commit` and
        `<boundary>.after-commit` fire around the COMMIT of an outermost transaction.
        """
        if self._depth > 0:
            with self._savepoint():
                yield self
            return
        with self._writer_lock():
            self.conn.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield self
                if boundary:
                    failpoint(f"{boundary}.before-commit")
            except BaseException:
                self._depth = 0
                self.conn.execute("ROLLBACK")
                raise
            self._depth = 0
            self.conn.execute("COMMIT")
            if boundary:
                failpoint(f"{boundary}.after-commit")

    @contextlib.contextmanager
    def _writer_lock(self) -> Iterator[None]:
        from filelock import Timeout

        try:
            self._lock.acquire(timeout=self.lock_timeout)
        except Timeout as exc:
            raise GitMemoryError(
                "GM_STATE_BUSY",
                "another git memory process is writing the memory state",
                hint="wait for it to finish and run the command again",
            ) from exc
        try:
            yield
        finally:
            self._lock.release()

    @contextlib.contextmanager
    def _savepoint(self) -> Iterator[None]:
        self._savepoints += 1
        name = f"sp{self._savepoints}"
        self.conn.execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            self.conn.execute(f"ROLLBACK TO {name}")
            self.conn.execute(f"RELEASE {name}")
            raise
        self.conn.execute(f"RELEASE {name}")

    @contextlib.contextmanager
    def read(self) -> Iterator[StateDB]:
        """A read snapshot (deferred transaction); inside `write()` it is a no-op."""
        if self._depth > 0:
            yield self
            return
        self.conn.execute("BEGIN")
        self._depth = 1
        try:
            yield self
        finally:
            self._depth = 0
            self.conn.execute("COMMIT")

    # -- statements ---------------------------------------------------------------------

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> int:
        """Run one statement; returns the number of rows changed."""
        cursor = self.conn.execute(sql, params)
        return cursor.rowcount

    def insert(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> int:
        """Run one INSERT; returns the new rowid."""
        cursor = self.conn.execute(sql, params)
        return int(cursor.lastrowid or 0)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each parameter row."""
        self.conn.executemany(sql, rows)

    def script(self, sql: str) -> None:
        """Run several statements (DDL only; never with user data)."""
        for statement in _statements(sql):
            self.conn.execute(statement)

    def rows(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[Row]:
        """All result rows."""
        return self.conn.execute(sql, params).fetchall()

    def one(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Row | None:
        """The first result row, or None."""
        row: Row | None = self.conn.execute(sql, params).fetchone()
        return row

    def scalar(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Any:
        """The first column of the first row, or None."""
        row = self.one(sql, params)
        return None if row is None else row[0]

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def __enter__(self) -> StateDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _statements(sql: str) -> list[str]:
    """Split DDL into statements, keeping trigger bodies (`BEGIN … END;`) whole."""
    out: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                out.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        out.append(buffer.strip())
    return out


def _unreadable(path: Path, exc: Exception) -> GitMemoryError:
    return GitMemoryError(
        "GM_STATE_DB_UNUSABLE",
        f"cannot use {path.name}: {exc}",
        hint="move the file aside; memory state (tasks, candidates) will start empty",
    )


def open_state(state_home: Path) -> StateDB:
    """Open (creating and migrating as needed) the memory-state DB of a state home."""
    return StateDB(state_db_path(state_home))
