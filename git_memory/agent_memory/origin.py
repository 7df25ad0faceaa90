"""Which transcript turns wrote a memory item: the agent's own record of where it came from.

An agent that keeps memory as files writes them with its file tools (Claude Code's `Write`
and `Edit`, Gemini CLI's `write_file` and `replace` …), and the sessions index records every
path a turn's tools named (docs/sessions.md). A turn of this worktree whose writing tool
named a store file and whose written text holds the item's words wrote that item; harvest
cites it beside the store item. Only an index that exists is read (harvest never syncs
one), and only turns that the index attributes to this worktree are considered.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from git_memory.agent_memory.items import MemoryItem
from git_memory.agent_memory.stores import FoundStore
from git_memory.sessions import index
from git_memory.sessions.query import attributed_cwds, closure_of, seal_after, turn_record
from git_memory.sessions.turns import ToolCall, call_paths

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree

WRITING_TOOLS = frozenset(
    {"Write", "Edit", "MultiEdit", "write_file", "replace", "edit", "write", "apply_patch"}
)
MAX_TURNS_PER_ITEM = 3
# The words that identify an item inside a tool's input: its first characters, normalized.
PROBE_CHARS = 120


@dataclass(frozen=True)
class WritingTurn:
    """A turn that wrote an item: its keys, revision and start time, and its prompt."""

    turn_key: str
    session_key: str
    revision: str
    started: str | None
    prompt: str


def writing_turns(
    worktree: Worktree, stores: list[FoundStore], items: Iterable[MemoryItem]
) -> dict[tuple[str, str], list[WritingTurn]]:
    """(store, item key) → the turns that wrote the item, latest last (at most three)."""
    paths = {
        os.path.normpath(str(file.path)): (found.spec.name, file.name)
        for found in stores
        for file in found.files
    }
    wanted = [item for item in items if (item.store, item.file) in paths.values()]
    if not wanted or not index.index_path(worktree.state_home).exists():
        return {}
    found: dict[tuple[str, str], list[WritingTurn]] = {}
    for turn, written in _turns_naming(worktree, list(paths)):
        for item in wanted:
            if (item.store, item.file) not in {paths[p] for p in written}:
                continue
            if _probe(item.text) in written_text(turn.tool_calls, set(written)):
                turns = found.setdefault((item.store, item.key), [])
                turns.append(
                    WritingTurn(
                        turn.turn_key, turn.session_key, turn.revision, turn.started, turn.user_text
                    )
                )
    return {key: turns[-MAX_TURNS_PER_ITEM:] for key, turns in found.items()}


def written_text(calls: Iterable[ToolCall], paths: set[str]) -> str:
    """The normalized text the writing calls among `calls` wrote to one of `paths`."""
    parts: list[str] = []
    for call in calls:
        if call.name not in WRITING_TOOLS:
            continue
        if not {os.path.normpath(p) for p in call_paths(call)} & paths:
            continue
        parts += _strings(call.input)
    return _normalized(" ".join(parts))


def _turns_naming(worktree: Worktree, paths: list[str]) -> list[tuple[Any, list[str]]]:
    """Turns of this worktree whose tools named one of `paths`, with the paths they named."""
    marks = ",".join("?" * len(paths))
    seal, moment = seal_after(worktree), time.time()
    with index.reader(worktree.state_home) as conn:
        cwds = attributed_cwds(conn, worktree.root)
        if not cwds:
            return []
        rows = conn.execute(
            "SELECT t.*, s.provider, s.turns AS session_turns, f.mtime_ns,"
            " group_concat(e.value, char(10)) AS named FROM edges e"
            " JOIN turns t ON t.id = e.turn_id JOIN sessions s ON s.session_key = t.session_key"
            f" JOIN files f ON f.id = t.file_id WHERE e.kind = 'path' AND e.value IN ({marks})"
            f" AND t.cwd IN ({','.join('?' * len(cwds))})"
            " GROUP BY t.id ORDER BY t.started, t.turn_key",
            [*paths, *cwds],
        ).fetchall()
        return [
            (
                turn_record(conn, worktree, row, closure_of(row, moment, seal)),
                row["named"].split("\n"),
            )
            for row in rows
        ]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _normalized(text: str) -> str:
    return " ".join(text.split())


def _probe(text: str) -> str:
    return _normalized(text)[:PROBE_CHARS]
