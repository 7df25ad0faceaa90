"""The session index `sessions.sqlite3`: schema, migrations, connections.

Derived data only (it can always be rebuilt from the transcripts). The file lives in the
private state home (0600), runs in WAL mode, and records applied migrations. The FTS5 table
is external-content over `turns(text, tools)` and is kept current by triggers, so it changes
in the same transaction as its rows (no reliance on `contentless_delete`).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from git_memory.errors import GitMemoryError
from git_memory.paths import PRIVATE_FILE_MODE, SESSIONS_DB, ensure_private_dir

if TYPE_CHECKING:
    from pathlib import Path

Connection = sqlite3.Connection
Row = sqlite3.Row
DatabaseError = sqlite3.DatabaseError
# Reading another program's database: seconds per connection, VM steps between clock checks,
# and the longest value (a message or part row is far smaller).
FOREIGN_BUDGET_SECONDS = 20.0
PROGRESS_STEPS = 10_000
FOREIGN_MAX_VALUE = 64 * 1024 * 1024

_V1 = """
CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  provider TEXT NOT NULL,
  dev INTEGER NOT NULL, ino INTEGER NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
  head_digest TEXT NOT NULL, boundary_digest TEXT NOT NULL, complete_offset INTEGER NOT NULL,
  reader_state TEXT NOT NULL,
  excluded TEXT
);
CREATE TABLE sessions (
  session_key TEXT PRIMARY KEY,
  file_id INTEGER NOT NULL UNIQUE REFERENCES files(id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  session_id TEXT NOT NULL,
  started TEXT, ended TEXT,
  turns INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE turns (
  id INTEGER PRIMARY KEY,
  turn_key TEXT NOT NULL UNIQUE,
  session_key TEXT NOT NULL REFERENCES sessions(session_key) ON DELETE CASCADE,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  start_offset INTEGER NOT NULL, last_offset INTEGER NOT NULL,
  started TEXT, ended TEXT, cwd TEXT,
  terminal INTEGER NOT NULL,
  text TEXT NOT NULL, tools TEXT NOT NULL, skills TEXT NOT NULL, states TEXT NOT NULL
);
CREATE INDEX turns_by_file ON turns(file_id, start_offset);
CREATE INDEX turns_by_cwd ON turns(cwd);
CREATE INDEX turns_by_session ON turns(session_key, ordinal);
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  offset INTEGER NOT NULL,
  kind TEXT NOT NULL, ts TEXT, cwd TEXT, call_id TEXT, name TEXT, text TEXT NOT NULL,
  input TEXT, state TEXT,
  deferred INTEGER NOT NULL DEFAULT 0, fingerprint INTEGER NOT NULL DEFAULT 0,
  size INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX events_by_file ON events(file_id, offset);
CREATE TABLE edges (
  turn_id INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  value TEXT NOT NULL
);
CREATE INDEX edges_by_turn ON edges(turn_id);
CREATE TABLE diagnostics (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  offset INTEGER NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL
);
CREATE INDEX diagnostics_by_file ON diagnostics(file_id);
CREATE VIRTUAL TABLE turns_fts USING fts5(text, tools, content='turns', content_rowid='id');
CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns BEGIN
  INSERT INTO turns_fts(rowid, text, tools) VALUES (new.id, new.text, new.tools);
END;
CREATE TRIGGER turns_fts_delete AFTER DELETE ON turns BEGIN
  INSERT INTO turns_fts(turns_fts, rowid, text, tools)
  VALUES ('delete', old.id, old.text, old.tools);
END;
"""

MIGRATIONS: tuple[tuple[int, str], ...] = ((1, _V1),)
SCHEMA_VERSION = MIGRATIONS[-1][0]


def index_path(state_home: Path) -> Path:
    """Where the session index lives."""
    return state_home / SESSIONS_DB


def lock_path(state_home: Path) -> Path:
    """The writer lock that serializes syncs."""
    return state_home / (SESSIONS_DB + ".lock")


def connect(state_home: Path) -> Connection:
    """Open (creating and migrating when needed) the index of this state home; a file that
    is not a readable index is `GM_SESSIONS_INDEX_UNREADABLE`, pointing at the rebuild."""
    ensure_private_dir(state_home)
    path = index_path(state_home)
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW, PRIVATE_FILE_MODE)
        os.close(fd)
    conn = sqlite3.connect(path, timeout=30.0, isolation_level=None)
    try:
        _configure(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise index_unreadable(exc) from exc
    for suffix in ("-wal", "-shm"):
        sidecar = path.with_name(path.name + suffix)
        if sidecar.exists() and sidecar.stat().st_mode & 0o777 != PRIVATE_FILE_MODE:
            os.chmod(sidecar, PRIVATE_FILE_MODE)
    return conn


def _configure(conn: Connection) -> None:
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA busy_timeout = 30000")
    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    _migrate(conn)


def index_unreadable(exc: Exception) -> GitMemoryError:
    """The error for a session index that SQLite cannot read (corrupt, or not a database)."""
    return GitMemoryError(
        "GM_SESSIONS_INDEX_UNREADABLE",
        f"the session index cannot be read ({exc})",
        hint="run `git memory sessions rebuild`, then try again",
    )


# A sync writes one transaction per file; the default checkpoint every 1000 WAL pages would
# copy the same hot pages into the database (and fsync it) a dozen times per large sync.
SYNC_CHECKPOINT_PAGES = 10_000


def connect_writer(state_home: Path) -> Connection:
    """`connect` for a sync: the WAL is checkpointed less often (and fully on close)."""
    conn = connect(state_home)
    conn.execute(f"PRAGMA wal_autocheckpoint = {SYNC_CHECKPOINT_PAGES}")
    return conn


def _migrate(conn: Connection) -> None:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations"
        " (version INTEGER PRIMARY KEY, applied TEXT NOT NULL)"
    )
    if _applied(conn) == {version for version, _ in MIGRATIONS}:
        return
    with transaction(conn):
        # Re-read under the write lock: another process may have migrated meanwhile.
        applied = _applied(conn)
        for version, script in MIGRATIONS:
            if version in applied:
                continue
            for statement in _statements(script):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations(version, applied) VALUES (?, ?)",
                (version, datetime.now(UTC).isoformat()),
            )


def _applied(conn: Connection) -> set[int]:
    applied = {int(row[0]) for row in conn.execute("SELECT version FROM schema_migrations")}
    newest = max(applied, default=0)
    if newest > SCHEMA_VERSION:
        raise GitMemoryError(
            "GM_SESSIONS_INDEX_NEWER",
            f"the session index has schema version {newest}; this version knows {SCHEMA_VERSION}",
            hint="upgrade git-memory, or run `git memory sessions rebuild`",
        )
    return applied


def _statements(script: str) -> list[str]:
    """Split a migration script on `;` at line ends, keeping trigger bodies whole."""
    out: list[str] = []
    buffer: list[str] = []
    for line in script.strip().splitlines():
        buffer.append(line)
        text = "\n".join(buffer)
        if line.endswith(";") and sqlite3.complete_statement(text):
            out.append(text)
            buffer = []
    return out


@contextmanager
def transaction(conn: Connection) -> Iterator[Connection]:
    """`BEGIN IMMEDIATE` … `COMMIT`, rolled back on any exception."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextmanager
def reader(state_home: Path) -> Iterator[Connection]:
    """A connection for queries, closed afterwards."""
    conn = connect(state_home)
    try:
        yield conn
    finally:
        conn.close()


@contextmanager
def existing_reader(path: str) -> Iterator[Connection]:
    """A connection to the index file at `path` that creates, migrates and writes nothing
    (the pre-commit hook reads through it; pathlib is not needed)."""
    # `mode=rw` never creates a missing file; URI metacharacters in the path are escaped.
    escaped = path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    conn = sqlite3.connect(f"file:{escaped}?mode=rw", uri=True, timeout=30.0)
    try:
        yield conn
    finally:
        conn.close()


def remove_index(state_home: Path) -> None:
    """Delete the index file and its WAL sidecars (rebuild)."""
    path = index_path(state_home)
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(str(path) + suffix)


@contextmanager
def foreign_database(path: str, budget: float = FOREIGN_BUDGET_SECONDS) -> Iterator[Connection]:
    """Another program's SQLite database, read without writing anything next to it.

    Even a read-only open of a WAL database creates `-wal`/`-shm` files beside it, so a
    database without a pending WAL is opened `immutable`; one whose WAL holds rows not yet
    checkpointed is copied with its WAL into a private temporary directory and read there.
    Every statement of the connection shares `budget` seconds (a progress handler interrupts
    the statement that goes past it, raising `DatabaseError`), and no value may be longer
    than `FOREIGN_MAX_VALUE` bytes.
    """
    from urllib.parse import quote

    wal = path + "-wal"
    if not (os.path.isfile(wal) and os.path.getsize(wal) > 0):
        uri = f"file:{quote(path)}?mode=ro&immutable=1"
    else:
        uri = f"file:{quote(_private_copy(path, wal))}?mode=ro"
    conn = sqlite3.connect(uri, uri=True)
    deadline = time.monotonic() + budget
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), PROGRESS_STEPS)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, FOREIGN_MAX_VALUE)
    try:
        yield conn
    finally:
        conn.close()


def tables_only(conn: Connection, names: tuple[str, ...]) -> list[str]:
    """Those of `names` that are not plain tables of the database (a view, a virtual table,
    or missing): a view can run any query, an endless recursive one included."""
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'"
        " AND upper(substr(ltrim(sql), 1, 14)) != 'CREATE VIRTUAL'"
    ).fetchall()
    tables = {row[0] for row in rows}
    return [name for name in names if name not in tables]


# The private copies of foreign databases with a pending WAL, kept while their files stay
# unchanged (a sync reads many sessions of one database); removed when the process ends.
_COPIES: dict[str, tuple[tuple[int, ...], Any]] = {}


def _private_copy(path: str, wal: str) -> str:
    """A copy of the database and its WAL in a private temporary directory."""
    import shutil
    import tempfile

    key = tuple(value for name in (path, wal) for value in _stat_key(os.stat(name)))
    known = _COPIES.get(path)
    if known is None or known[0] != key:
        scratch = tempfile.TemporaryDirectory(prefix="git-memory-")
        copy = os.path.join(scratch.name, "copy.db")
        shutil.copyfile(path, copy)
        shutil.copyfile(wal, copy + "-wal")
        _COPIES[path] = (key, scratch)  # the previous copy is removed with its object
    return os.path.join(_COPIES[path][1].name, "copy.db")


def _stat_key(stat: os.stat_result) -> tuple[int, ...]:
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)
