"""The session index `sessions.sqlite3`: its schema and its `Database` (git_memory/database.py).

Derived data only (it can always be rebuilt from the transcripts). The file lives in the
private state home (0600), runs in WAL mode, and records its applied migrations by name (an
index written before names were used recorded version 1, read as `0001-sessions-index`). The
FTS5 table is external-content over `turns(text, tools)`, so it changes in the same
transaction as its rows (no reliance on `contentless_delete`): a trigger removes the FTS rows
of deleted turns, and a sync adds those of each batch's new turns in one statement.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from git_memory.database import LOCK_SUFFIX, Connection, Database, Schema, Trouble
from git_memory.errors import GitMemoryError
from git_memory.paths import SESSIONS_DB

if TYPE_CHECKING:
    from pathlib import Path

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


# A per-row insert trigger made every inserted turn its own FTS5 statement: SQLite opens a
# statement savepoint for each, FTS5 flushes its pending terms to a new segment at every
# savepoint, and the segments were merged again and again (most of a full sync's index
# writes). A sync now adds the FTS rows of a batch's new turns by one statement before the
# batch commits (`writer.index_new_turns`; a per-file statement still flushed at every file's
# savepoint); deleting turns still goes through the delete trigger.
_FTS_PER_FILE = """
DROP TRIGGER IF EXISTS turns_fts_insert;
"""

# (name, DDL) in order. Never edit a released one; append.
MIGRATIONS: tuple[tuple[str, str], ...] = (
    ("0001-sessions-index", _V1),
    ("0002-sessions-fts-per-file", _FTS_PER_FILE),
)


def index_path(state_home: Path) -> Path:
    """Where the session index lives."""
    return state_home / SESSIONS_DB


def lock_path(state_home: Path) -> Path:
    """The index's writer lock (a sync holds it throughout)."""
    return state_home / (SESSIONS_DB + LOCK_SUFFIX)


SCHEMA = Schema(
    migrations=MIGRATIONS,
    unusable=Trouble(
        "GM_SESSIONS_INDEX_UNREADABLE",
        "the session index cannot be read ({detail})",
        "run `git memory sessions rebuild`, then try again",
    ),
    too_new=Trouble(
        "GM_SESSIONS_INDEX_NEWER",
        "the session index was written by a newer version ({detail})",
        "upgrade git-memory, or run `git memory sessions rebuild`",
    ),
    busy=Trouble(
        "GM_SESSIONS_LOCKED",
        "another `git memory sessions sync` is still running",
        "wait for it to finish and run the sync again",
    ),
)


def index_unreadable(exc: Exception) -> GitMemoryError:
    """The error for a session index that SQLite cannot read (corrupt, or not a database)."""
    return SCHEMA.unusable.error(exc)


# A sync writes one transaction per file; the default checkpoint every 1000 WAL pages would
# copy the same hot pages into the database (and fsync it) a dozen times per large sync.
SYNC_CHECKPOINT_PAGES = 10_000
# A sync's page cache, in KiB (SQLite's default is 2 MiB). A batch writes megabytes: past the
# default, SQLite spilled dirty pages to the WAL in the middle of the transaction and read the
# indexes' pages back from it for every later file (a fifth of a full sync's CPU time in
# `tests/perf/bench_sessions_sync.py`'s mixed corpus). The cache grows only as pages are used.
SYNC_CACHE_KIB = 64 * 1024


def open_index(state_home: Path) -> Database:
    """Open (creating and migrating when needed) the index of this state home; a file that
    is not a readable index is `GM_SESSIONS_INDEX_UNREADABLE`, pointing at the rebuild."""
    return Database(index_path(state_home), SCHEMA)


def open_writer(state_home: Path, lock_timeout: float) -> Database:
    """`open_index` for a sync, waiting up to `lock_timeout` seconds for the writer lock: the
    WAL is checkpointed less often (and fully on close), and the page cache holds a batch."""
    db = Database(index_path(state_home), SCHEMA, lock_timeout=lock_timeout)
    db.execute(f"PRAGMA wal_autocheckpoint = {SYNC_CHECKPOINT_PAGES}")
    db.execute(f"PRAGMA cache_size = -{SYNC_CACHE_KIB}")
    # Id ranges of turns stored in the current batch and not in the FTS index yet (this
    # connection's own table: rolled back with a file's savepoint like the turns themselves).
    db.execute("PRAGMA temp_store = MEMORY")
    db.execute("CREATE TEMP TABLE unindexed_turns (low INTEGER NOT NULL, high INTEGER NOT NULL)")
    return db


@contextmanager
def reader(state_home: Path) -> Iterator[Connection]:
    """A connection for queries, closed afterwards."""
    with open_index(state_home) as db:
        yield db.conn


def remove_index(state_home: Path) -> None:
    """Delete the index file and its WAL sidecars (rebuild)."""
    path = index_path(state_home)
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(str(path) + suffix)
