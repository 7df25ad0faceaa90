"""What each session of a worktree did, read straight from the index: when it started, the
tool calls it made (in order, with each result's state and stored output head) and what the
person typed. Read in two queries for the whole worktree, without loading transcripts, so a
measure over thousands of sessions costs about what reading their rows costs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from git_memory.database import Connection
from git_memory.sessions import index
from git_memory.sessions.query import attributed_cwds
from git_memory.sessions.records import STEER, TOOL_CALL, TOOL_RESULT, UNKNOWN, USER
from git_memory.sessions.turns import ToolCall

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree


@dataclass(frozen=True)
class SessionActivity:
    """One session: its key, agent, first turn's start (canonical UTC), calls and asks."""

    session_key: str
    provider: str
    started: str
    calls: tuple[ToolCall, ...]
    asks: tuple[str, ...]


def session_activity(worktree: Worktree, since: str | None = None) -> list[SessionActivity]:
    """The sessions attributed to `worktree` (every agent), oldest first; those started
    before `since` (canonical UTC) and those without a start time are left out."""
    with index.reader(worktree.state_home) as conn:
        sessions = _sessions(conn, attributed_cwds(conn, worktree.root), since)
        if not sessions:
            return []
        calls, asks = _events(conn, sessions)
    return [
        SessionActivity(key, provider, started, tuple(calls.get(file_id, ())),
                        tuple(asks.get(file_id, ())))
        for file_id, (key, provider, started) in sorted(sessions.items(), key=lambda i: i[1][2])
    ]  # fmt: skip


def _sessions(
    conn: Connection, cwds: list[str], since: str | None
) -> dict[int, tuple[str, str, str]]:
    if not cwds:
        return {}
    rows = conn.execute(
        "SELECT s.file_id, s.session_key, s.provider, min(t.started) FROM turns t"
        " JOIN sessions s ON s.session_key = t.session_key"
        f" WHERE t.cwd IN ({','.join('?' * len(cwds))}) AND t.started IS NOT NULL"
        " GROUP BY s.session_key",
        cwds,
    )
    return {row[0]: (row[1], row[2], row[3]) for row in rows if since is None or row[3] >= since}


def _events(
    conn: Connection, sessions: dict[int, Any]
) -> tuple[dict[int, list[ToolCall]], dict[int, list[str]]]:
    calls: dict[int, list[ToolCall]] = {}
    asks: dict[int, list[str]] = {}
    pending: dict[tuple[int, str | None], ToolCall] = {}
    # Sessions repeat their calls (the same command, the same file): each distinct input is
    # decoded once, and its calls share the decoded value, which readers do not change.
    decoded: dict[str, Any] = {}
    rows = conn.execute(
        "SELECT file_id, kind, call_id, name, input, state, text FROM events"
        " WHERE kind IN (?, ?, ?, ?) ORDER BY file_id, offset, id",
        (USER, STEER, TOOL_CALL, TOOL_RESULT),
    )
    for file_id, kind, call_id, name, payload, state, text in rows:
        if file_id not in sessions:
            continue
        if kind == TOOL_CALL:
            if payload and payload not in decoded:
                decoded[payload] = json.loads(payload)
            call = ToolCall(call_id, name or "", decoded[payload] if payload else None)
            calls.setdefault(file_id, []).append(call)
            pending[(file_id, call_id)] = call
        elif kind == TOOL_RESULT:
            found = pending.pop((file_id, call_id), None)
            if found is not None:
                found.output, found.state = text, state or UNKNOWN
        elif text:
            asks.setdefault(file_id, []).append(text)
    return calls, asks
