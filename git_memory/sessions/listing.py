"""Session listing and lookup for `sessions list` / `sessions show` (no ids, no paths)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from git_memory.sessions import index
from git_memory.sessions.query import (
    TranscriptSlices,
    TurnRecord,
    attributed_cwds,
    closure_of,
    seal_after,
    turn_record,
)
from git_memory.sessions.turns import HARD_SEALED, QUIESCENT

if TYPE_CHECKING:
    from git_memory.database import Connection
    from git_memory.repo.binding import Worktree

_TURN_COLUMNS = (
    "SELECT t.*, s.provider, s.turns AS session_turns, f.mtime_ns FROM turns t"
    " JOIN sessions s ON s.session_key = t.session_key JOIN files f ON f.id = t.file_id"
)


@dataclass(frozen=True)
class SessionRow:
    """One listed session."""

    session_key: str
    provider: str
    started: str | None
    ended: str | None
    turns: int
    sealed_turns: int
    first_prompt: str | None = None


def list_sessions(
    worktree: Worktree,
    *,
    all_worktrees: bool,
    since: str | None,
    until: str | None,
    provider: str | None,
) -> list[SessionRow]:
    """Sessions with turns attributed to `worktree` (or every session), oldest first."""
    seal, now = seal_after(worktree), time.time()
    with index.reader(worktree.state_home) as conn:
        sql, params = _TURN_COLUMNS, []
        if not all_worktrees:
            cwds = attributed_cwds(conn, worktree.root)
            if not cwds:
                return []
            sql += f" WHERE t.cwd IN ({','.join('?' * len(cwds))})"
            params = cwds
        counts: dict[str, list[int]] = {}
        prompts: dict[str, tuple[int, str]] = {}
        for row in conn.execute(sql, params):
            entry = counts.setdefault(row["session_key"], [0, 0])
            entry[0] += 1
            entry[1] += closure_of(row, now, seal) in (HARD_SEALED, QUIESCENT)
            first = prompts.get(row["session_key"])
            if first is None or row["ordinal"] < first[0]:
                prompts[row["session_key"]] = (row["ordinal"], _first_line(row["text"]))
        sessions = conn.execute("SELECT * FROM sessions ORDER BY started, session_key")
        out = []
        for row in sessions:
            if row["session_key"] not in counts and not all_worktrees:
                continue
            if provider and row["provider"] != provider:
                continue
            if since and (row["ended"] or row["started"] or "") < since:
                continue
            if until and (row["started"] or "") >= until:
                continue
            turns, sealed = counts.get(row["session_key"], [0, 0])
            prompt = prompts.get(row["session_key"])
            out.append(
                SessionRow(
                    row["session_key"],
                    row["provider"],
                    row["started"],
                    row["ended"],
                    turns,
                    sealed,
                    prompt[1] if prompt else None,
                )
            )
    return out


def oldest_start(worktree: Worktree) -> str | None:
    """When the oldest indexed session with turns in `worktree` started (None: none)."""
    with index.reader(worktree.state_home) as conn:
        cwds = attributed_cwds(conn, worktree.root)
        if not cwds:
            return None
        marks = ",".join("?" * len(cwds))
        row = conn.execute(
            "SELECT min(s.started) FROM sessions s WHERE s.session_key IN"
            f" (SELECT t.session_key FROM turns t WHERE t.cwd IN ({marks}))",
            cwds,
        ).fetchone()
    return row[0] if row and isinstance(row[0], str) else None


def _first_line(text: str) -> str:
    """The opening line of a turn's text: the user's prompt, as people recognise a session."""
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:200]
    return ""


class ShownSession(NamedTuple):
    """A session's key, provider and turns, and how its folder was found (None: the
    transcript records it)."""

    session_key: str
    provider: str
    turns: list[TurnRecord]
    attribution: str | None = None


def show(worktree: Worktree, key: str) -> ShownSession | None:
    """The session of a session key, or of a turn key (then only that turn)."""
    seal, now = seal_after(worktree), time.time()
    with index.reader(worktree.state_home) as conn:
        session = conn.execute(
            "SELECT session_key, provider FROM sessions WHERE session_key = ?", (key,)
        ).fetchone()
        only = None
        if session is None:
            turn = conn.execute(
                "SELECT session_key FROM turns WHERE turn_key = ?", (key,)
            ).fetchone()
            if turn is None:
                return None
            only = key
            session = conn.execute(
                "SELECT session_key, provider FROM sessions WHERE session_key = ?", (turn[0],)
            ).fetchone()
        rows = conn.execute(
            _TURN_COLUMNS + " WHERE t.session_key = ? ORDER BY t.ordinal", (session[0],)
        )
        slices = TranscriptSlices()
        records = [
            turn_record(conn, worktree, row, closure_of(row, now, seal), slices)
            for row in rows
            if only is None or row["turn_key"] == only
        ]
        attribution = _attribution(conn, session[0])
    return ShownSession(session[0], session[1], records, attribution)


def _attribution(conn: Connection, session_key: str) -> str | None:
    """What the reader recorded about how the session's folder was found."""
    row = conn.execute(
        "SELECT f.reader_state FROM sessions s JOIN files f ON f.id = s.file_id"
        " WHERE s.session_key = ?",
        (session_key,),
    ).fetchone()
    try:
        value = json.loads(row[0]).get("attribution") if row else None
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None
