"""Rows of one file's transaction: events, turns with their evidence edges, diagnostics.

Every table is written with one `executemany` per file (turn ids are assigned here, inside
the file's write transaction, so the edges can be batched too). The new turns' id ranges are
noted in the sync's temporary `unindexed_turns` table (`index.open_writer`), and
`index_new_turns` adds their FTS5 rows by one statement per batch (`index.py` says why not by
a trigger).
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime
from typing import Any

from git_memory.contracts.base import format_timestamp
from git_memory.database import Connection
from git_memory.sessions.records import Diagnostic, Event
from git_memory.sessions.turns import Turn, build_turns, commit_candidates, observed_paths

# Tool inputs as stored JSON text (one encoder: `json.dumps` with options builds one per call).
_INPUT_TEXT = json.JSONEncoder(ensure_ascii=False).encode
# Already canonical (`YYYY-MM-DDTHH:MM:SS.mmmZ`, four-digit year): only its validity is checked.
_CANONICAL = re.compile(r"[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")

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


def canonical_time(value: str | None) -> str | None:
    """The canonical UTC form of an ISO timestamp, or None when it is not one."""
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if _CANONICAL.fullmatch(value):
        return value  # formatting it again would give the same text
    return format_timestamp(moment)


def insert_events(conn: Connection, file_id: int, events: list[Event]) -> None:
    """Store a file's normalized events."""
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
                None if e.input is None else _INPUT_TEXT(e.input),
                e.state,
                int(e.deferred),
                e.fingerprint,
                e.size,
            )
            for e in events
        ],
    )


def store_turns(conn: Connection, key: str, file_id: int, events: list[Event], first: int) -> int:
    """Build the turns of `events` (ordinals from `first`), store them and refresh the
    session's counts; returns how many turns were stored."""
    # Revisions are computed when a turn is loaded (query.py): a sync does not hash content.
    turns = build_turns(key, events, first, revisions=False)
    if turns:
        _insert_turns(conn, key, file_id, turns)
    ends = conn.execute(
        "SELECT min(started), max(coalesce(ended, started)) FROM turns WHERE file_id = ?",
        (file_id,),
    ).fetchone()
    conn.execute(
        "UPDATE sessions SET turns = ?, started = ?, ended = ? WHERE session_key = ?",
        (first + len(turns), ends[0], ends[1], key),
    )
    return len(turns)


def _insert_turns(conn: Connection, key: str, file_id: int, turns: list[Turn]) -> None:
    # The write transaction is held, so the next ids are ours to take.
    (last,) = conn.execute("SELECT coalesce(max(id), 0) FROM turns").fetchone()
    rows: list[tuple[Any, ...]] = []
    edges: list[tuple[int, str, str]] = []
    for turn_id, turn in enumerate(turns, last + 1):
        rows.append(_turn_row(turn_id, key, file_id, turn))
        edges += [(turn_id, "path", path) for path in observed_paths(turn)]
        edges += [(turn_id, "commit", hex_id) for hex_id in commit_candidates(turn)]
    conn.executemany(
        "INSERT INTO turns(id, turn_key, session_key, file_id, ordinal, start_offset,"
        " last_offset, started, ended, cwd, terminal, text, tools, skills, states)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        rows,
    )
    conn.execute(
        "INSERT INTO unindexed_turns(low, high) VALUES (?, ?)", (last + 1, last + len(turns))
    )
    conn.executemany("INSERT INTO edges(turn_id, kind, value) VALUES (?,?,?)", edges)


def index_new_turns(conn: Connection) -> None:
    """Add the turns stored since the last call to the full-text index, in one statement.

    Called before a sync commits each batch, so the FTS rows change in the same transaction
    as their turns (index.py says why not per row or per file). No turn is deleted in the
    batch that stored it (a sync reads each source once), so the delete trigger only ever
    removes FTS rows that exist."""
    conn.execute(
        "INSERT INTO turns_fts(rowid, text, tools) SELECT t.id, t.text, t.tools"
        " FROM unindexed_turns u JOIN turns t ON t.id BETWEEN u.low AND u.high ORDER BY t.id"
    )
    conn.execute("DELETE FROM unindexed_turns")


def _turn_row(turn_id: int, key: str, file_id: int, turn: Turn) -> tuple[Any, ...]:
    names = dict.fromkeys(call.name for call in turn.tools)
    states = dict.fromkeys(call.state for call in turn.tools)
    return (
        turn_id,
        turn.turn_key,
        key,
        file_id,
        turn.ordinal,
        turn.start_offset,
        turn.last_offset,
        canonical_time(turn.started),
        canonical_time(turn.ended),
        _resolve(turn.cwd),
        int(turn.terminal),
        "\n\n".join(part for part in (turn.user_text, turn.assistant_text) if part),
        "\n".join(names),
        "\n".join(turn.skills),
        "\n".join(states),
    )


def write_diagnostics(conn: Connection, file_id: int, diagnostics: list[Diagnostic]) -> None:
    """Store a file's diagnostics."""
    conn.executemany(
        "INSERT INTO diagnostics(file_id, offset, code, message) VALUES (?,?,?,?)",
        [(file_id, d.offset, d.code, d.message) for d in diagnostics],
    )
