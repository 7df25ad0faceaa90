"""OpenCode sessions under its data directory (`$XDG_DATA_HOME/opencode`).

Two containers of the same message and part objects (docs/sessions.md):
- `opencode.db` (2026): the `session`, `message` and `part` tables, read through
  `foreign_database` (an immutable open, or a private copy when a WAL is pending), so
  nothing is ever written beside the user's database. Only those three tables are queried:
  never the account or credential tables.
- `storage/` (2025): `session/<project>/<id>.json`, `message/<session>/<id>.json` and
  `part/<message>/<id>.json`, one object per file.
A session spans many rows or files, so it is read whole; its identity for the sync
checkpoint is the database file plus the rows' count and newest update time (or the count,
total size and newest mtime of its files). User text parts that are not `synthetic` are the
prompt; `tool` parts carry the call, its status and, for shell calls, `metadata.exit`. The
worktree is the session's `directory` (an assistant message's `path.cwd` when present).
Sessions with a parent are sub-agent sessions and are excluded.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from git_memory.database import Connection, DatabaseError, foreign_database, tables_only
from git_memory.sessions.providers.base import Document, Provider, SourceFile, walk
from git_memory.sessions.providers.common import (
    call_pair,
    decode_document,
    iso_from_ms,
    mapping,
    person_text,
    read_document,
    state_of,
    string,
    tree_identity,
)
from git_memory.sessions.records import (
    ASSISTANT,
    COMPLETED,
    FAILED,
    USER,
    Diagnostic,
    Event,
    text_of,
)
from git_memory.sessions.source_io import SourceRefused, is_regular

PROVIDER = "opencode"
DATABASE = "opencode.db"
_MS = 1_000_000  # nanoseconds per millisecond
# Times beyond the year 9999 are not times; rows read per session and sessions listed.
_MAX_MS = 253_402_300_800_000
MAX_ROWS = 200_000
TABLES = ("session", "message", "part")
# Rows and newest update per session, messages and parts alike (parts are joined through
# their message: not every schema version has `part.session_id`).
_ROW_TIMES = (
    "SELECT session_id, count(*), max(time_updated) FROM message GROUP BY session_id"
    " UNION ALL SELECT m.session_id, count(*), max(p.time_updated)"
    " FROM part p JOIN message m ON m.id = p.message_id GROUP BY m.session_id"
)


def home() -> Any:
    """`$XDG_DATA_HOME/opencode`, default `~/.local/share/opencode`."""

    base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return Path(base) / "opencode"


def find(home_dir: str) -> list[SourceFile]:
    """Sessions of the database, then those of the JSON storage tree."""
    return _database_sessions(home_dir) + _storage_sessions(home_dir)


def _database_sessions(home_dir: str) -> list[SourceFile]:
    path = os.path.join(home_dir, DATABASE)
    if not is_regular(path):
        return []
    stat = os.stat(path)
    try:
        with foreign_database(path) as conn:
            _check_tables(conn)
            sessions = conn.execute(
                "SELECT id, parent_id, time_updated FROM session LIMIT ?", (MAX_ROWS,)
            ).fetchall()
            counts: dict[str, list[int]] = {}
            for session_id, count, newest in conn.execute(_ROW_TIMES):
                entry = counts.setdefault(session_id, [0, 0])
                entry[0] += int(count)
                entry[1] = max(entry[1], _time(newest))
    except (SourceRefused, DatabaseError):
        # Listed once, so the sync reports why the database is not read (see `read`).
        identity = (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)
        return [SourceFile(f"{path}#", PROVIDER, "", DATABASE, identity=identity)]
    except OSError:
        return []
    out = []
    for session_id, parent, updated in sessions:
        if not isinstance(session_id, str) or not session_id:
            continue
        count, newest = counts.get(session_id, [0, 0])
        identity = (stat.st_dev, stat.st_ino, count, max(newest, _time(updated)) * _MS)
        excluded = "subagent" if parent else None
        out.append(
            SourceFile(
                f"{path}#{session_id}",
                PROVIDER,
                session_id,
                f"{DATABASE}#{session_id}",
                excluded,
                identity,
            )
        )
    return out


def _time(value: object) -> int:
    """A millisecond time column as an int; 0 for what is not a finite number (text, a
    blob, NULL, infinity), which the session's read reports."""
    if isinstance(value, int) and not isinstance(value, bool):
        return max(0, min(value, _MAX_MS))
    if isinstance(value, float) and math.isfinite(value):
        return max(0, min(int(value), _MAX_MS))
    return 0


def _valid_time(value: object) -> bool:
    return value is None or (
        isinstance(value, int | float) and math.isfinite(value) and 0 <= value <= _MAX_MS
    )


def _check_tables(conn: Connection) -> None:
    """Only plain tables are read: a view named like them could run any query."""
    odd = tables_only(conn, TABLES)
    if odd:
        raise SourceRefused(
            "unsafe-database", f"not plain tables in {DATABASE}: {', '.join(sorted(odd))}"
        )


def _storage_sessions(home_dir: str) -> list[SourceFile]:
    storage = os.path.join(home_dir, "storage")
    out = []
    for path, name, below in walk(os.path.join(storage, "session")):
        if below.count("/") != 0 or not below or not name.endswith(".json"):
            continue
        session_id = name[: -len(".json")]
        identity = tree_identity(path, _storage_files(storage, session_id))
        display = f"storage/session/{below}/{name}"
        out.append(SourceFile(path, PROVIDER, session_id, display, identity=identity))
    return out


def _storage_files(storage: str, session_id: str) -> list[str]:
    """The message and part files of one session, in creation order."""
    files = []
    for message, _, _ in walk(os.path.join(storage, "message", session_id)):
        files.append(message)
        message_id = os.path.basename(message)[: -len(".json")]
        files += [part for part, _, _ in walk(os.path.join(storage, "part", message_id))]
    return files


def read(source: SourceFile) -> Document:
    """The events of one session (database rows or storage files)."""
    if "#" in os.path.basename(source.path):
        return _read_database(source)
    return _read_storage(source)


def _read_database(source: SourceFile) -> Document:
    path, _, session_id = source.path.rpartition("#")
    try:
        with foreign_database(path) as conn:
            _check_tables(conn)
            if not session_id:
                return Document()  # the database reads again: the next sync lists it
            return _session_rows(conn, session_id)
    except DatabaseError as exc:
        # Not the index's error: this database is another program's (corrupt, locked, or
        # beyond the time budget).
        raise SourceRefused("unreadable-database", f"{DATABASE}: {exc}") from exc


def _session_rows(conn: Connection, session_id: str) -> Document:
    diagnostics: list[Diagnostic] = []
    row = conn.execute(
        "SELECT directory, parent_id, time_updated FROM session WHERE id = ?", (session_id,)
    ).fetchone()
    if row is None:
        return Document()
    if not _valid_time(row[2]):
        diagnostics.append(Diagnostic("invalid-row", 0, "session time_updated is not a time"))
    messages = conn.execute(
        "SELECT id, data, time_updated FROM message WHERE session_id = ?"
        " ORDER BY time_created, id LIMIT ?",
        (session_id, MAX_ROWS),
    ).fetchall()
    part_rows = conn.execute(
        "SELECT p.message_id, p.data FROM part p JOIN message m ON m.id = p.message_id"
        " WHERE m.session_id = ? ORDER BY p.id LIMIT ?",
        (session_id, MAX_ROWS),
    ).fetchall()
    parts: dict[str, list[dict[str, Any]]] = {}
    for message_id, data in part_rows:
        decoded = _decode(data, len(parts), diagnostics)
        if decoded is not None:
            parts.setdefault(message_id, []).append(decoded)
    infos = []
    for number, (message_id, data, updated) in enumerate(messages):
        if not _valid_time(updated):
            diagnostics.append(
                Diagnostic("invalid-row", number, "message time_updated is not a time")
            )
        infos.append((message_id, _decode(data, number, diagnostics)))
    if len(messages) == MAX_ROWS or len(part_rows) == MAX_ROWS:
        diagnostics.append(Diagnostic("row-limit", 0, f"read the first {MAX_ROWS} rows only"))
    events = _events(string(row[0]), [(m, info) for m, info in infos if info], parts)
    return Document(events, diagnostics, subagent=bool(row[1]))


def _decode(data: Any, offset: int, diagnostics: list[Diagnostic]) -> dict[str, Any] | None:
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if not isinstance(raw, bytes):
        return None
    found: list[Diagnostic] = []
    value = decode_document(raw, found)
    diagnostics += [Diagnostic(d.code, offset, d.message) for d in found]
    return value if isinstance(value, dict) else None


def _read_storage(source: SourceFile) -> Document:
    diagnostics: list[Diagnostic] = []
    session = decode_document(read_document(source.path), diagnostics) or {}
    storage = os.path.dirname(os.path.dirname(os.path.dirname(source.path)))
    messages: list[tuple[str, dict[str, Any]]] = []
    parts: dict[str, list[dict[str, Any]]] = {}
    for path, name, _ in walk(os.path.join(storage, "message", source.session_id)):
        message_id = name[: -len(".json")]
        info = _decode(_read_part(path, len(messages), diagnostics), len(messages), diagnostics)
        if info is None:
            continue
        messages.append((message_id, info))
        ordinal = len(messages) - 1
        for part_path, _, _ in walk(os.path.join(storage, "part", message_id)):
            part = _decode(_read_part(part_path, ordinal, diagnostics), ordinal, diagnostics)
            if part is not None:
                parts.setdefault(message_id, []).append(part)
    events = _events(string(session.get("directory")), messages, parts)
    return Document(events, diagnostics, subagent=bool(session.get("parentID")))


def _read_part(path: str, ordinal: int, diagnostics: list[Diagnostic]) -> bytes | None:
    """One message or part file of the storage tree; a refused one is a diagnostic."""
    try:
        return read_document(path)
    except SourceRefused as refused:
        diagnostics.append(Diagnostic(refused.code, ordinal, refused.message))
        return None


def _events(
    directory: str | None,
    messages: list[tuple[str, dict[str, Any]]],
    parts: dict[str, list[dict[str, Any]]],
) -> list[Event]:
    events: list[Event] = []
    for ordinal, (message_id, info) in enumerate(messages):
        time = mapping(info.get("time"))
        ts = iso_from_ms(time.get("created"))
        place = mapping(info.get("path"))
        cwd = string(place.get("cwd")) or directory
        role = info.get("role")
        for_message = parts.get(message_id, [])
        if role == "user":
            typed = person_text("\n\n".join(_texts(for_message, user=True)))
            if typed is not None:
                events.append(Event(USER, ordinal, ts, cwd, text=typed))
        elif role == "assistant":
            events += [Event(ASSISTANT, ordinal, ts, cwd, text=t) for t in _texts(for_message)]
            for part in for_message:
                if part.get("type") == "tool" and isinstance(part.get("tool"), str):
                    events += _tool(part, ordinal, ts, cwd)
    return events


def _texts(parts: list[dict[str, Any]], *, user: bool = False) -> list[str]:
    return [
        part["text"]
        for part in parts
        if part.get("type") == "text"
        and isinstance(part.get("text"), str)
        and part["text"].strip()
        and not (user and (part.get("synthetic") or part.get("ignored")))
    ]


def _tool(part: dict[str, Any], offset: int, ts: str | None, cwd: str | None) -> list[Event]:
    state = mapping(part.get("state"))
    status = state.get("status")
    result = None
    if status in ("completed", "error"):
        text = text_of(state.get("output") if status == "completed" else state.get("error"))
        code = mapping(state.get("metadata")).get("exit")
        if status == "error" or (isinstance(code, int) and code != 0):
            result = (text, FAILED)
        elif isinstance(code, int) or part["tool"] != "bash":
            result = (text, COMPLETED)
        else:
            # A shell call without its exit status: completed only if the output says exit 0.
            result = (text, state_of(None, text))
    call = (string(part.get("callID")), part["tool"], state.get("input"))
    return call_pair(offset, ts, cwd, call, result)


PROVIDER_INFO = Provider(
    name=PROVIDER,
    label="OpenCode",
    variable="XDG_DATA_HOME",
    home=home,
    find=find,
    document=read,
)
