"""The session index through the one `Database`: files written before migrations had names."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from git_memory.database import Database, Schema, applied_migrations
from git_memory.errors import GitMemoryError
from git_memory.sessions import index
from git_memory.sessions.sync import sync
from tests.sessions.transcripts import claude_path, claude_turn, write_jsonl

# What the index code before named migrations ran on a new file (its `_migrate`): the
# bookkeeping table with integer versions, then version 1's DDL with its row.
OLD_BOOKKEEPING = (
    "CREATE TABLE IF NOT EXISTS schema_migrations"
    " (version INTEGER PRIMARY KEY, applied TEXT NOT NULL)"
)


def _old_index(state_home: Path, versions: tuple[int, ...] = (1,)) -> Path:
    state_home.mkdir(mode=0o700, exist_ok=True)
    path = index.index_path(state_home)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(OLD_BOOKKEEPING)
    conn.executescript(index.MIGRATIONS[0][1])
    for version in versions:
        conn.execute(
            "INSERT INTO schema_migrations(version, applied) VALUES (?, ?)",
            (version, "2026-11-01T00:00:00+00:00"),
        )
    conn.execute(
        "INSERT INTO files(path, provider, dev, ino, size, mtime_ns, head_digest,"
        " boundary_digest, complete_offset, reader_state) VALUES"
        " ('/t/a.jsonl', 'claude-code', 1, 2, 3, 4, 'h', 'b', 3, '{}')"
    )
    conn.close()
    path.chmod(0o600)
    return path


def _columns(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [row[1] for row in conn.execute("PRAGMA table_info(schema_migrations)")]
    finally:
        conn.close()


def _first_version() -> Schema:
    """The index schema as it was released first (one migration)."""
    return Schema(
        migrations=index.MIGRATIONS[:1],
        unusable=index.SCHEMA.unusable,
        too_new=index.SCHEMA.too_new,
        busy=index.SCHEMA.busy,
    )


def test_an_index_written_with_integer_versions_opens_unchanged_when_nothing_is_due(
    tmp_path: Path,
) -> None:
    path = _old_index(tmp_path / "state")
    with Database(path, _first_version()) as db:
        assert applied_migrations(db) == ["0001-sessions-index"]
        assert db.scalar("SELECT path FROM files") == "/t/a.jsonl"
    # Nothing had to be applied, so the file keeps the layout its older writer reads.
    assert _columns(path) == ["version", "applied"]


def _search(conn: sqlite3.Connection, word: str) -> list[str]:
    rows = conn.execute(
        "SELECT t.turn_key FROM turns_fts JOIN turns t ON t.id = turns_fts.rowid"
        " WHERE turns_fts MATCH ? ORDER BY t.turn_key",
        (word,),
    )
    return [str(row[0]) for row in rows]


def test_an_index_of_the_first_version_is_upgraded_and_stays_searchable(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    state = tmp_path / "state"
    path = _old_index(state)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "INSERT INTO sessions(session_key, file_id, provider, session_id)"
        " VALUES ('k', 1, 'claude-code', 's')"
    )
    conn.execute(  # indexed by the first version's insert trigger
        "INSERT INTO turns(turn_key, session_key, file_id, ordinal, start_offset, last_offset,"
        " terminal, text, tools, skills, states) VALUES ('old', 'k', 1, 0, 0, 0, 0,"
        " 'zanzibar question', '', '', '')"
    )
    conn.close()
    with index.open_index(state) as db:
        assert applied_migrations(db) == index.SCHEMA.names
        assert db.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") == 1
        assert _search(db.conn, "zanzibar") == ["old"]
    cwd = str(tmp_path)
    write_jsonl(
        claude_path(hermetic_env["claude"], "s1"),
        claude_turn("zanzibar again", "an answer", cwd, "m1"),
    )
    result = sync(state, roots=[("claude-code", hermetic_env["claude"])])
    assert (result.new, result.removed) == (1, 1)
    with index.reader(state) as conn:
        # The vanished file's turn left the FTS index through the delete trigger; the new
        # file's turn entered it without the insert trigger.
        assert len(_search(conn, "zanzibar")) == 1
        assert _search(conn, "old") == []
        conn.execute("INSERT INTO turns_fts(turns_fts) VALUES ('integrity-check')")


def test_an_integer_version_this_code_does_not_know_is_refused(tmp_path: Path) -> None:
    # Integer version n reads as the n-th migration: one past the last is unknown.
    unknown = len(index.MIGRATIONS) + 1
    _old_index(tmp_path / "state", versions=(1, unknown))
    with pytest.raises(GitMemoryError) as raised:
        index.open_index(tmp_path / "state")
    assert raised.value.code == "GM_SESSIONS_INDEX_NEWER"
    assert f"version {unknown}" in raised.value.message


def test_a_new_migration_over_integer_versions_records_names(tmp_path: Path) -> None:
    path = _old_index(tmp_path / "state")
    later = Schema(
        migrations=(*index.MIGRATIONS, ("0099-extra", "CREATE TABLE extra (x INTEGER);")),
        unusable=index.SCHEMA.unusable,
        too_new=index.SCHEMA.too_new,
        busy=index.SCHEMA.busy,
    )
    with Database(path, later) as db:
        assert applied_migrations(db) == [*index.SCHEMA.names, "0099-extra"]
        assert db.scalar("SELECT count(*) FROM extra") == 0
        assert db.scalar("SELECT count(*) FROM files") == 1
    assert _columns(path) == ["name", "applied_at"]
    with Database(path, later) as again:  # and opens again without applying anything
        assert applied_migrations(again) == [*index.SCHEMA.names, "0099-extra"]


def test_a_symlink_in_place_of_the_index_is_refused(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    target = tmp_path / "elsewhere.sqlite3"
    target.touch()
    index.index_path(state).symlink_to(target)
    with pytest.raises(GitMemoryError) as raised:
        index.open_index(state)
    assert raised.value.code == "GM_SYMLINK_REFUSED"
