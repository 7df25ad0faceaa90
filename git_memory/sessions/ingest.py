"""Index one transcript source: checkpoint check, read, parse, one transaction of writes.

A JSON-lines file's checkpoint is `{dev, ino, size, mtime_ns, head digest, boundary digest,
complete offset}`: identical stat → unchanged; same file grown with the same head
and boundary bytes → resume after the last complete line; anything else → full re-read. The
unterminated last line is never parsed: the complete offset stops before it. A source read
whole (docs/sessions.md) has only its identity: unchanged, or read again.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from git_memory.database import Connection, Database, DatabaseError
from git_memory.failpoints import failpoint
from git_memory.sessions.lines import SHAPE_ERRORS, ProbedLines, parse, parse_lines, reader_of
from git_memory.sessions.providers.base import Document, SourceFile
from git_memory.sessions.providers.table import provider
from git_memory.sessions.query import load_events
from git_memory.sessions.records import INLINE_LIMIT, TOOL_RESULT, USER, Diagnostic, Event
from git_memory.sessions.source_io import (
    SourceRefused,
    capped_lines,
    inflated_lines,
    open_regular,
)
from git_memory.sessions.strict_json import MAX_RECORD_BYTES
from git_memory.sessions.turns import session_key
from git_memory.sessions.writer import insert_events, store_turns, write_diagnostics

PROBE = 4096
READ_BUFFER = 1 << 20
# The `excluded` mark of a source refused with this identity (its reason in reader_state).
REFUSED = "refused"
# The longest line kept: a record at its size limit with its CR/LF.
LINE_CAP = MAX_RECORD_BYTES + 2

__all__ = ["FileOutcome", "ingest", "parse"]


@dataclass
class FileOutcome:
    """What happened to one file."""

    kind: str  # new | resumed | reread | unchanged | excluded (subagent, duplicate) | refused
    turns_added: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _digest_range(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@contextmanager
def _lines(source: SourceFile, offset: int = 0) -> Iterator[ProbedLines]:
    """The lines of a transcript from `offset` on (a compressed one as a bounded stream)."""
    if source.compressed:
        with open_regular(source.path) as handle:
            yield ProbedLines(inflated_lines(handle), PROBE)
        return
    # Reading through a large buffer copies each line once; no line is held past the cap
    # (a file without newlines is never read whole).
    with open_regular(source.path, buffering=READ_BUFFER) as handle:
        handle.seek(offset)
        yield ProbedLines(capped_lines(handle, LINE_CAP, PROBE), PROBE)


def _identity(stat: os.stat_result | None) -> tuple[int, int, int, int]:
    assert stat is not None
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)


def _probes(path: str, complete: int) -> tuple[bytes, bytes]:
    """The first and last `PROBE` bytes before `complete`."""
    with open_regular(path) as handle:
        head = handle.read(min(PROBE, complete))
        start = max(0, complete - PROBE)
        handle.seek(start)
        return head, handle.read(complete - start)


def _resume_offset(source: SourceFile, row: Any, stat: os.stat_result) -> int | None:
    """Where an append-only continuation starts, or None when the file must be re-read."""
    if source.compressed or (row["dev"], row["ino"]) != (stat.st_dev, stat.st_ino):
        return None
    complete = row["complete_offset"]
    if stat.st_size < complete:
        return None
    head, boundary = _probes(source.path, complete)
    if (
        _digest_range(head) != row["head_digest"]
        or _digest_range(boundary) != row["boundary_digest"]
    ):
        return None
    return int(complete)


def ingest(db: Database, source: SourceFile, known: Any) -> FileOutcome:
    """Bring the index up to date with one source (one transaction).

    `known` is None for a source not indexed yet, else its `(id, dev, ino, size, mtime_ns,
    excluded)`. Raises `SourceRefused` for a source that must not be read (not a regular
    file, a decompression bomb); the refusal is remembered with the source's identity, so an
    unchanged source is refused again without being read."""
    stat = None if source.identity is not None else os.stat(source.path)
    identity = source.identity or _identity(stat)
    if known is not None and tuple(known[1:5]) == identity:
        if known[5] == REFUSED:
            raise _remembered(db.conn, known[0])
        return FileOutcome("unchanged")
    try:
        return _changed(db, source, known, stat, identity)
    except SourceRefused as refused:
        _remember(db, source, known, identity, refused)
        raise


def _remembered(conn: Connection, file_id: int) -> SourceRefused:
    (state,) = conn.execute("SELECT reader_state FROM files WHERE id = ?", (file_id,)).fetchone()
    code, message = json.loads(state)["refused"]
    return SourceRefused(str(code), str(message))


def _remember(
    db: Database,
    source: SourceFile,
    known: Any,
    identity: tuple[int, int, int, int],
    refused: SourceRefused,
) -> None:
    state = {"refused": [refused.code, refused.message]}
    with db.write():
        if known is not None:
            db.conn.execute("DELETE FROM files WHERE id = ?", (known[0],))
        file_id = _new_file(db.conn, source, Checkpoint(identity, (b"", b""), 0, state))
        db.conn.execute("UPDATE files SET excluded = ? WHERE id = ?", (REFUSED, file_id))


def _changed(
    db: Database,
    source: SourceFile,
    known: Any,
    stat: os.stat_result | None,
    identity: tuple[int, int, int, int],
) -> FileOutcome:
    row: Any = None
    if known is not None:
        row = db.conn.execute("SELECT * FROM files WHERE id = ?", (known[0],)).fetchone()
    reader = provider(source.provider)
    if reader.document is not None and reader.reads_whole(source):
        try:
            document = reader.document(source)
        except (*SHAPE_ERRORS, DatabaseError) as exc:
            message = f"unexpected document shape ({type(exc).__name__})"
            raise SourceRefused("unreadable-document", message) from exc
        return _read_document(db, source, row, identity, document)
    assert stat is not None  # only whole-source readers list sources made of several parts
    resume = _resume_offset(source, row, stat) if row is not None else None
    if resume is not None and row["excluded"] is None:
        return _resume(db, source, row, stat, resume)
    return _read_whole(db, source, row, stat)


def _resume(
    db: Database, source: SourceFile, row: Any, stat: os.stat_result, offset: int
) -> FileOutcome:
    """Append-only growth: parse only the new complete lines, rebuild from the tail turn."""
    state = _seeded(source, json.loads(row["reader_state"]))
    with _lines(source, offset) as lines:
        events, diagnostics, complete = parse_lines(source.provider, lines, offset, state)
    with db.write():
        added = _append(db.conn, source, row["id"], events)
        write_diagnostics(db.conn, row["id"], diagnostics)
        _checkpoint(db.conn, source, row["id"], stat, complete=complete, state=state)
        failpoint("sessions.sync.file-written")
    return FileOutcome("resumed", added, diagnostics)


def _read_whole(db: Database, source: SourceFile, row: Any, stat: os.stat_result) -> FileOutcome:
    """A new file, or one that changed other than by appending: index it from scratch."""
    state = _seeded(source, reader_of(source.provider).new_state())
    with _lines(source) as lines:
        events, diagnostics, complete = parse_lines(source.provider, lines, 0, state)
    checkpoint = Checkpoint(
        _identity(stat),
        (lines.head, lines.boundary()),
        complete,
        state,
    )
    return _store(db, source, row, checkpoint, events=events, diagnostics=diagnostics)


def _seeded(source: SourceFile, state: dict[str, Any]) -> dict[str, Any]:
    """The reader state with what the provider reads beside the file (each time it is read:
    a sidecar or the file's time may have changed)."""
    seed = provider(source.provider).seed
    if seed is not None:
        state.update(seed(source))
    return state


def _read_document(
    db: Database,
    source: SourceFile,
    row: Any,
    identity: tuple[int, int, int, int],
    document: Document,
) -> FileOutcome:
    """A whole-source reader's output replaces whatever the index held for the source.

    Large tool outputs keep only their head, as in JSON lines (`query.fill_outputs` reads
    them back from the document)."""
    for event in document.events:
        if event.kind == TOOL_RESULT and len(event.text) > INLINE_LIMIT:
            event.text, event.deferred = event.text[:INLINE_LIMIT], True
    state: dict[str, Any] = {"subagent": document.subagent}
    if document.attribution is not None:
        state["attribution"] = document.attribution
    checkpoint = Checkpoint(identity, (b"", b""), 0, state)
    return _store(
        db, source, row, checkpoint, events=document.events, diagnostics=document.diagnostics
    )


@dataclass(frozen=True)
class Checkpoint:
    """What a source's `files` row records: identity, probe bytes, complete offset, state."""

    identity: tuple[int, int, int, int]
    probes: tuple[bytes, bytes]
    complete: int
    state: dict[str, Any]


def _store(
    db: Database,
    source: SourceFile,
    row: Any,
    checkpoint: Checkpoint,
    *,
    events: list[Event],
    diagnostics: list[Diagnostic],
) -> FileOutcome:
    """One transaction: the source's old rows out, its events, turns and diagnostics in."""
    with db.write():
        if row is not None:
            db.conn.execute("DELETE FROM files WHERE id = ?", (row["id"],))
        file_id = _new_file(db.conn, source, checkpoint)
        key = session_key(source.provider, source.session_id)
        excluded = _exclusion(db.conn, key, checkpoint.state)
        added = 0
        if excluded is None:
            _open_session(db.conn, source, key, file_id)
            added = store_turns(db.conn, key, file_id, events, 0)
            insert_events(db.conn, file_id, events)
        else:
            db.conn.execute("UPDATE files SET excluded = ? WHERE id = ?", (excluded, file_id))
        write_diagnostics(db.conn, file_id, diagnostics)
        failpoint("sessions.sync.file-written")
    kind = "excluded" if excluded else "new" if row is None else "reread"
    return FileOutcome(kind, added, diagnostics)


def _exclusion(conn: Connection, key: str, state: dict[str, Any]) -> str | None:
    if state.get("subagent"):
        return "subagent"
    if conn.execute("SELECT 1 FROM sessions WHERE session_key = ?", (key,)).fetchone():
        return "duplicate-session"
    return None


def _new_file(conn: Connection, source: SourceFile, checkpoint: Checkpoint) -> int:
    head, boundary = checkpoint.probes
    cursor = conn.execute(
        "INSERT INTO files(path, provider, dev, ino, size, mtime_ns, head_digest,"
        " boundary_digest, complete_offset, reader_state) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (
            source.path,
            source.provider,
            *checkpoint.identity,
            _digest_range(head),
            _digest_range(boundary),
            checkpoint.complete,
            json.dumps(checkpoint.state),
        ),
    )
    return int(cursor.lastrowid or 0)


def _checkpoint(
    conn: Connection,
    source: SourceFile,
    file_id: int,
    stat: os.stat_result,
    *,
    complete: int,
    state: dict[str, Any],
) -> None:
    head, boundary = _probes(source.path, complete)
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


def _open_session(conn: Connection, source: SourceFile, key: str, file_id: int) -> None:
    conn.execute(
        "INSERT INTO sessions(session_key, file_id, provider, session_id) VALUES (?,?,?,?)",
        (key, file_id, source.provider, source.session_id),
    )


def _append(conn: Connection, source: SourceFile, file_id: int, events: list[Event]) -> int:
    """Insert new events and rebuild the turns from the tail turn on."""
    before = conn.execute(
        "SELECT count(*), max(start_offset) FROM turns WHERE file_id = ?", (file_id,)
    ).fetchone()
    insert_events(conn, file_id, events)
    tail = before[1]
    if tail is None and not any(e.kind == USER for e in events):
        return 0
    start = tail if tail is not None else 0
    kept = before[0] - (1 if tail is not None else 0)
    conn.execute("DELETE FROM turns WHERE file_id = ? AND start_offset >= ?", (file_id, start))
    every = load_events(conn, file_id, start, 2**62)
    key = session_key(source.provider, source.session_id)
    return store_turns(conn, key, file_id, every, kept) - (1 if tail is not None else 0)
