"""What each session of a worktree did, read straight from the index: when it started, the
tool calls it made (in order, with each result's state and stored output head) and what the
person typed. Read in two queries for the whole worktree, without loading transcripts, so a
measure over thousands of sessions costs about what reading their rows costs.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
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
    """One session: its key, agent, first turn's start (canonical UTC), calls and asks; the
    worktree it ran in (its name: `main` for the main one) and the directory its first turn
    started in, relative to that worktree's root ("" the root itself)."""

    session_key: str
    provider: str
    started: str
    calls: tuple[ToolCall, ...]
    asks: tuple[str, ...]
    worktree: str = "main"
    at: str = ""
    # That worktree's root (absolute): where a call told to run in an absolute folder ran,
    # relative to it (`extract.builtin.shell.call_start`).
    root: str = ""

    def relative(self, path: str) -> str:
        """An absolute path relative to the session's worktree root (above it: `../…`)."""
        return _relative(path, Path(self.root)) if self.root else path


@dataclass(frozen=True)
class Activity:
    """The sessions read, oldest first, and the keys of those that could not be placed in
    time (no turn has a start time), which no window can hold."""

    sessions: list[SessionActivity]
    undated: list[str]


def worktree_roots(worktree: Worktree) -> dict[str, Path]:
    """Every worktree of the repository by name (`main` for the main one), this one too."""
    roots: dict[str, Path] = {}
    if worktree.common_dir.name == ".git":
        roots["main"] = worktree.common_dir.parent
    repository = worktree.repository
    for name in repository.list_worktrees():
        try:
            roots[name] = Path(repository.lookup_worktree(name).path).resolve()
        except (KeyError, ValueError, OSError):
            continue  # pruned or unreadable: its sessions cannot be attributed
    if worktree.root not in roots.values():
        roots["main" if "main" not in roots else worktree.root.name] = worktree.root
    return roots


def session_activity(
    worktree: Worktree, since: str | None = None, *, every_worktree: bool = False
) -> Activity:
    """The sessions attributed to `worktree` (every agent; with `every_worktree`, to every
    worktree of its repository), oldest first; those started before `since` (canonical UTC)
    are left out, those without a start time named apart."""
    roots = worktree_roots(worktree) if every_worktree else {_name(worktree): worktree.root}
    with index.reader(worktree.state_home) as conn:
        sessions: dict[int, tuple[str, str, str, str, str]] = {}
        undated: list[str] = []
        for name, root in roots.items():
            found, missing = _sessions(conn, root, attributed_cwds(conn, root), since)
            sessions.update({key: (*row, name) for key, row in found.items()})
            undated += missing
        if not sessions:
            return Activity([], sorted(set(undated)))
        calls, asks = _events(conn, sessions)
    ordered = sorted(sessions.items(), key=lambda i: i[1][2])
    return Activity(
        [
            SessionActivity(key, provider, started, tuple(calls.get(file_id, ())),
                            tuple(asks.get(file_id, ())), name, at, str(roots[name]))
            for file_id, (key, provider, started, at, name) in ordered
        ],
        sorted(set(undated)),
    )  # fmt: skip


def _name(worktree: Worktree) -> str:
    found = [name for name, root in worktree_roots(worktree).items() if root == worktree.root]
    return found[0] if found else "main"


def _sessions(
    conn: Connection, root: Path, cwds: list[str], since: str | None
) -> tuple[dict[int, tuple[str, str, str, str]], list[str]]:
    if not cwds:
        return {}, []
    # SQLite gives the bare `cwd` of the row holding the aggregate's minimum.
    rows = conn.execute(
        "SELECT s.file_id, s.session_key, s.provider, min(t.started), t.cwd FROM turns t"
        " JOIN sessions s ON s.session_key = t.session_key"
        f" WHERE t.cwd IN ({','.join('?' * len(cwds))})"
        " GROUP BY s.session_key",
        cwds,
    )
    found: dict[int, tuple[str, str, str, str]] = {}
    undated: list[str] = []
    for file_id, key, provider, started, cwd in rows:
        if started is None:
            undated.append(key)
        elif since is None or started >= since:
            found[file_id] = (key, provider, started, _relative(cwd, root))
    return found, undated


@functools.lru_cache(maxsize=4096)
def _relative(cwd: str | None, root: Path) -> str:
    if not cwd:
        return ""
    relative = os.path.relpath(cwd, root)
    return "" if relative == "." else relative.replace(os.sep, "/")


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
