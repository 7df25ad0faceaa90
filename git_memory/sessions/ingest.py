"""Index one transcript file: checkpoint check, read, parse, and one transaction of writes.

Checkpoint `{dev, ino, size, mtime_ns, head digest, boundary digest, complete offset}` (SPEC
§5): identical stat → unchanged; same file grown with the same head and boundary bytes →
resume after the last complete line; anything else → full re-read. The unterminated last line
is never parsed: the complete offset stops before it.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from git_memory.contracts.base import format_timestamp
from git_memory.failpoints import failpoint
from git_memory.sessions import claude, codex, index
from git_memory.sessions.discover import CLAUDE, SourceFile
from git_memory.sessions.query import load_events
from git_memory.sessions.records import TOOL_RESULT, Diagnostic, Event
from git_memory.sessions.strict_json import LineRejected, decode_line
from git_memory.sessions.turns import (
    Turn,
    build_turns,
    commit_candidates,
    observed_paths,
    session_key,
)

PROBE = 4096


@dataclass
class FileOutcome:
    """What happened to one file."""

    kind: str  # new | resumed | reread | unchanged | excluded (subagent or duplicate session)
    turns_added: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _reader(provider: str) -> Any:
    return claude if provider == CLAUDE else codex


def _digest_range(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_all(source: SourceFile) -> bytes:
    with open(source.path, "rb") as handle:
        data = handle.read()
    if source.compressed:
        import zstandard

        data = zstandard.ZstdDecompressor().decompressobj().decompress(data)
    return data


def _resume_offset(source: SourceFile, row: Any, stat: os.stat_result) -> int | None:
    """Where an append-only continuation starts, or None when the file must be re-read."""
    if source.compressed or (row["dev"], row["ino"]) != (stat.st_dev, stat.st_ino):
        return None
    complete = row["complete_offset"]
    if stat.st_size < complete:
        return None
    with open(source.path, "rb") as handle:
        head = handle.read(min(PROBE, complete))
        start = max(0, complete - PROBE)
        handle.seek(start)
        boundary = handle.read(complete - start)
    if (
        _digest_range(head) != row["head_digest"]
        or _digest_range(boundary) != row["boundary_digest"]
    ):
        return None
    return int(complete)


def _read_from(source: SourceFile, offset: int) -> bytes:
    with open(source.path, "rb") as handle:
        handle.seek(offset)
        return handle.read()


def parse(
    provider: str, data: bytes, base: int, state: dict[str, Any]
) -> tuple[list[Event], list[Diagnostic], int]:
    """Events and diagnostics of the complete lines of `data` (starting at byte `base`);
    returns the offset just after the last complete line."""
    reader = _reader(provider)
    read_record, unknown_type = reader.read_record, reader.unknown_type
    events: list[Event] = []
    diagnostics: list[Diagnostic] = []
    unknown: list[str] = state.setdefault("unknown", [])
    position = base
    lines = data.split(b"\n")
    lines.pop()  # the unterminated tail (or b"" after a final newline) is held back
    for line in lines:
        offset = position
        position += len(line) + 1
        if not line or line.isspace():
            continue
        raw = line[:-1] if line.endswith(b"\r") else line
        try:
            record = decode_line(raw)
        except LineRejected as exc:
            diagnostics.append(Diagnostic(exc.code, offset, exc.message))
            continue
        found = read_record(record, offset, state)
        for event in found:
            if event.kind == TOOL_RESULT:
                event.fingerprint, event.size = zlib.crc32(raw), len(raw)
        events += found
        odd = unknown_type(record, state)
        if odd is not None and odd not in unknown:
            unknown.append(odd)
            diagnostics.append(
                Diagnostic("unknown-record-type", offset, f"unknown type {odd[:40]!r}")
            )
    return events, diagnostics, position


def ingest(conn: index.Connection, source: SourceFile, row: Any) -> FileOutcome:
    """Bring the index up to date with one file (one transaction)."""
    stat = os.stat(source.path)
    if row is not None and (row["dev"], row["ino"], row["size"], row["mtime_ns"]) == (
        stat.st_dev,
        stat.st_ino,
        stat.st_size,
        stat.st_mtime_ns,
    ):
        return FileOutcome("unchanged")
    resume = _resume_offset(source, row, stat) if row is not None else None
    if resume is not None and row["excluded"] is None:
        return _resume(conn, source, row, stat, resume)
    return _read_whole(conn, source, row, stat)


def _resume(
    conn: index.Connection, source: SourceFile, row: Any, stat: os.stat_result, offset: int
) -> FileOutcome:
    """Append-only growth: parse only the new complete lines, rebuild from the tail turn."""
    data = _read_from(source, offset)
    state = json.loads(row["reader_state"])
    events, diagnostics, complete = parse(source.provider, data, offset, state)
    with index.transaction(conn):
        added = _append(conn, source, row["id"], events, state)
        _write_diagnostics(conn, row["id"], diagnostics)
        _checkpoint(conn, source, row["id"], stat, complete=complete, state=state)
        failpoint("sessions.sync.before-commit")
    return FileOutcome("resumed", added, diagnostics)


def _read_whole(
    conn: index.Connection, source: SourceFile, row: Any, stat: os.stat_result
) -> FileOutcome:
    """A new file, or one that changed other than by appending: index it from scratch."""
    data = _read_all(source)
    state = _reader(source.provider).new_state()
    events, diagnostics, complete = parse(source.provider, data, 0, state)
    with index.transaction(conn):
        if row is not None:
            conn.execute("DELETE FROM files WHERE id = ?", (row["id"],))
        file_id = _new_file(conn, source, stat, data=data, complete=complete, state=state)
        excluded = _exclusion(conn, source, state)
        added = 0
        if excluded is None:
            _open_session(conn, source, file_id)
            added = _store_turns(conn, source, file_id, events, 0)
            _insert_events(conn, file_id, events)
        else:
            conn.execute("UPDATE files SET excluded = ? WHERE id = ?", (excluded, file_id))
        _write_diagnostics(conn, file_id, diagnostics)
        failpoint("sessions.sync.before-commit")
    kind = "excluded" if excluded else "new" if row is None else "reread"
    return FileOutcome(kind, added, diagnostics)


def _exclusion(conn: index.Connection, source: SourceFile, state: dict[str, Any]) -> str | None:
    if state.get("subagent"):
        return "subagent"
    key = session_key(source.provider, source.session_id)
    if conn.execute("SELECT 1 FROM sessions WHERE session_key = ?", (key,)).fetchone():
        return "duplicate-session"
    return None


def _new_file(
    conn: index.Connection,
    source: SourceFile,
    stat: os.stat_result,
    *,
    data: bytes,
    complete: int,
    state: dict[str, Any],
) -> int:
    head = data[: min(PROBE, complete)]
    boundary = data[max(0, complete - PROBE) : complete]
    cursor = conn.execute(
        "INSERT INTO files(path, provider, dev, ino, size, mtime_ns, head_digest,"
        " boundary_digest, complete_offset, reader_state) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (
            str(source.path),
            source.provider,
            stat.st_dev,
            stat.st_ino,
            stat.st_size,
            stat.st_mtime_ns,
            _digest_range(head),
            _digest_range(boundary),
            complete,
            json.dumps(state),
        ),
    )
    return int(cursor.lastrowid or 0)


def _checkpoint(
    conn: index.Connection,
    source: SourceFile,
    file_id: int,
    stat: os.stat_result,
    *,
    complete: int,
    state: dict[str, Any],
) -> None:
    with open(source.path, "rb") as handle:
        head = handle.read(min(PROBE, complete))
        start = max(0, complete - PROBE)
        handle.seek(start)
        boundary = handle.read(complete - start)
    conn.execute(
        "UPDATE files SET dev=?, ino=?, size=?, mtime_ns=?, head_digest=?, boundary_digest=?,"
        " complete_offset=?, reader_state=? WHERE id=?",
        (
            stat.st_dev,
            stat.st_ino,
            stat.st_size,
            stat.st_mtime_ns,
            _digest_range(head),
            _digest_range(boundary),
            complete,
            json.dumps(state),
            file_id,
        ),
    )


def _open_session(conn: index.Connection, source: SourceFile, file_id: int) -> None:
    conn.execute(
        "INSERT INTO sessions(session_key, file_id, provider, session_id) VALUES (?,?,?,?)",
        (
            session_key(source.provider, source.session_id),
            file_id,
            source.provider,
            source.session_id,
        ),
    )


def _append(
    conn: index.Connection,
    source: SourceFile,
    file_id: int,
    events: list[Event],
    state: dict[str, Any],
) -> int:
    """Insert new events and rebuild the turns from the tail turn on."""
    before = conn.execute(
        "SELECT count(*), max(start_offset) FROM turns WHERE file_id = ?", (file_id,)
    ).fetchone()
    _insert_events(conn, file_id, events)
    tail = before[1]
    if tail is None and not any(e.kind == "user" for e in events):
        return 0
    start = tail if tail is not None else 0
    kept = before[0] - (1 if tail is not None else 0)
    conn.execute("DELETE FROM turns WHERE file_id = ? AND start_offset >= ?", (file_id, start))
    every = load_events(conn, file_id, start, 2**62)
    return _store_turns(conn, source, file_id, every, kept) - (1 if tail is not None else 0)


def _insert_events(conn: index.Connection, file_id: int, events: list[Event]) -> None:
    conn.executemany(
        "INSERT INTO events(file_id, offset, kind, ts, cwd, call_id, name, text, input, state,"
        " deferred, fingerprint, size) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [
            (
                file_id,
                e.offset,
                e.kind,
                e.timestamp,
                e.cwd,
                e.call_id,
                e.name,
                e.text,
                None if e.input is None else json.dumps(e.input, ensure_ascii=False),
                e.state,
                int(e.deferred),
                e.fingerprint,
                e.size,
            )
            for e in events
        ],
    )


_REAL: dict[str, str] = {}


def forget_resolved() -> None:
    """Drop cached realpaths (a long-lived process syncs again after directories moved)."""
    _REAL.clear()


def _resolve(cwd: str | None) -> str | None:
    """The realpath of an absolute cwd (cached: a sync sees few distinct ones)."""
    if not cwd or not os.path.isabs(cwd):
        return None
    if cwd not in _REAL:
        _REAL[cwd] = os.path.realpath(cwd)
    return _REAL[cwd]


def _canonical_time(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return format_timestamp(datetime.fromisoformat(value.replace("Z", "+00:00")))
    except ValueError:
        return None


def _store_turns(
    conn: index.Connection, source: SourceFile, file_id: int, events: list[Event], first: int
) -> int:
    key = session_key(source.provider, source.session_id)
    # Revisions are computed when a turn is loaded (query.py): a sync does not hash content.
    turns = build_turns(key, events, first, revisions=False)
    for turn in turns:
        _insert_turn(conn, key, file_id, turn)
    total = first + len(turns)
    ends = conn.execute(
        "SELECT min(started), max(coalesce(ended, started)) FROM turns WHERE file_id = ?",
        (file_id,),
    ).fetchone()
    conn.execute(
        "UPDATE sessions SET turns = ?, started = ?, ended = ? WHERE session_key = ?",
        (total, ends[0], ends[1], key),
    )
    return len(turns)


def _insert_turn(conn: index.Connection, key: str, file_id: int, turn: Turn) -> None:
    names = list(dict.fromkeys(call.name for call in turn.tools))
    states = list(dict.fromkeys(call.state for call in turn.tools))
    cursor = conn.execute(
        "INSERT INTO turns(turn_key, session_key, file_id, ordinal, start_offset, last_offset,"
        " started, ended, cwd, terminal, text, tools, skills, states)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            turn.turn_key,
            key,
            file_id,
            turn.ordinal,
            turn.start_offset,
            turn.last_offset,
            _canonical_time(turn.started),
            _canonical_time(turn.ended),
            _resolve(turn.cwd),
            int(turn.terminal),
            "\n\n".join(part for part in (turn.user_text, turn.assistant_text) if part),
            "\n".join(names),
            "\n".join(turn.skills),
            "\n".join(states),
        ),
    )
    turn_id = cursor.lastrowid
    edges = [("path", p) for p in observed_paths(turn)] + [
        ("commit", c) for c in commit_candidates(turn)
    ]
    conn.executemany(
        "INSERT INTO edges(turn_id, kind, value) VALUES (?,?,?)",
        [(turn_id, kind, value) for kind, value in edges],
    )


def _write_diagnostics(conn: index.Connection, file_id: int, diagnostics: list[Diagnostic]) -> None:
    conn.executemany(
        "INSERT INTO diagnostics(file_id, offset, code, message) VALUES (?,?,?,?)",
        [(file_id, d.offset, d.code, d.message) for d in diagnostics],
    )
