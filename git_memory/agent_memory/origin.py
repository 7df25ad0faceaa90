"""Which transcript turns wrote a memory item: the agent's own record of where it came from.

An agent that keeps memory as files writes them with its file tools (Claude Code's `Write`
and `Edit`, Gemini CLI's `write_file` and `replace` …) or with a memory tool of its own
(Gemini CLI's `save_memory`), and the sessions index records every path a turn's tools
named (docs/sessions.md). A turn of this worktree whose writing tool named a store file (or
whose memory tool saved to that store) and whose written text holds the item's words wrote
that item; harvest cites it beside the store item. Only an index that exists is read
(harvest never syncs one; an unreadable one is passed over), and only turns that the index
attributes to this worktree are considered.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from git_memory.agent_memory.items import MemoryItem
from git_memory.agent_memory.stores import FoundStore
from git_memory.database import Connection, Row
from git_memory.errors import GitMemoryError
from git_memory.sessions import index
from git_memory.sessions.query import (
    TurnRecord,
    attributed_cwds,
    closure_of,
    seal_after,
    turn_record,
)
from git_memory.sessions.turns import ToolCall, call_paths

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree

WRITING_TOOLS = frozenset(
    {"Write", "Edit", "MultiEdit", "write_file", "replace", "edit", "write", "apply_patch"}
)
# Tools that save to an agent's memory without naming its file: Gemini CLI's `save_memory`
# appends its `fact` under `## Gemini Added Memories`.
MEMORY_TOOLS = {"save_memory": "gemini-memories"}
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
    relation: str = "wrote-memory"  # or "learned-in": the first turn of a session it names


def writing_turns(
    worktree: Worktree, stores: list[FoundStore], items: Iterable[MemoryItem]
) -> dict[tuple[str, str], list[WritingTurn]]:
    """(store, item key) → the turns that wrote the item, latest last (at most three)."""
    paths = {
        (found.spec.name, file.name): os.path.normpath(str(file.path))
        for found in stores
        for file in found.files
    }
    wanted = [item for item in items if (item.store, item.file) in paths]
    if not wanted or not index.index_path(worktree.state_home).exists():
        return {}
    try:
        return _writing_turns(worktree, paths, wanted)
    except GitMemoryError as exc:
        if exc.code != "GM_SESSIONS_INDEX_UNREADABLE":
            raise
        return {}  # the items stand on the store alone; `sessions rebuild` repairs the index


def _writing_turns(
    worktree: Worktree, paths: dict[tuple[str, str], str], wanted: list[MemoryItem]
) -> dict[tuple[str, str], list[WritingTurn]]:
    found: dict[tuple[str, str], list[WritingTurn]] = {}
    for turn in _candidate_turns(worktree, sorted(set(paths.values()))):
        for item in wanted:
            wrote = written_text(turn.tool_calls, paths[item.store, item.file], item.store)
            if _probe(item.text) in wrote:
                found.setdefault((item.store, item.key), []).append(
                    WritingTurn(
                        turn.turn_key, turn.session_key, turn.revision, turn.started, turn.user_text
                    )
                )
    for item in wanted:
        for learned in _first_turns(worktree, item.threads, item.rollouts):
            found.setdefault((item.store, item.key), []).append(learned)
    return {key: turns[-MAX_TURNS_PER_ITEM:] for key, turns in found.items()}


def _first_turns(
    worktree: Worktree, threads: tuple[str, ...], rollouts: tuple[str, ...] = ()
) -> list[WritingTurn]:
    """The first turn in this worktree of each Codex session in `threads`, or whose rollout
    file is one of `rollouts` (as named or resolved, compressed since or not)."""
    if not threads and not rollouts:
        return []
    named = [*rollouts, *(os.path.realpath(path) for path in rollouts)]
    plain = [path.removesuffix(".zst") for path in named]
    files = tuple(dict.fromkeys([*named, *plain, *(f"{path}.zst" for path in plain)]))
    seal, moment = seal_after(worktree), time.time()
    first: dict[str, WritingTurn] = {}
    with index.reader(worktree.state_home) as conn:
        for row in _codex_rows(conn, attributed_cwds(conn, worktree.root), threads, files):
            if row["session_key"] in first:
                continue
            turn = turn_record(conn, worktree, row, closure_of(row, moment, seal))
            first[row["session_key"]] = WritingTurn(
                turn.turn_key,
                turn.session_key,
                turn.revision,
                turn.started,
                turn.user_text,
                "learned-in",
            )
    return list(first.values())


def _codex_rows(
    conn: Connection, cwds: list[str], threads: tuple[str, ...], files: tuple[str, ...]
) -> list[Row]:
    """Turns in `cwds` of the Codex sessions with one of `threads` as id or one of `files`
    as rollout file, earliest first."""
    return list(
        conn.execute(
            "SELECT t.*, s.provider, s.turns AS session_turns, f.mtime_ns FROM turns t"
            " JOIN sessions s ON s.session_key = t.session_key JOIN files f ON f.id = t.file_id"
            f" WHERE s.provider = 'codex' AND (s.session_id IN ({_marks(threads)})"
            f" OR f.path IN ({_marks(files)})) AND t.cwd IN ({_marks(cwds)})"
            " ORDER BY t.started, t.ordinal",
            [*threads, *files, *cwds],
        ).fetchall()
    )


def _marks(values: Iterable[object]) -> str:
    """SQL placeholders for `values` (one that matches nothing when there are none)."""
    return ",".join("?" for _ in values) or "NULL"


def written_text(calls: Iterable[ToolCall], path: str, store: str) -> str:
    """The normalized text that `calls` wrote to the store file at `path`: with a file tool
    that names it, or with the agent's own memory tool for its store."""
    parts: list[str] = []
    for call in calls:
        names_file = call.name in WRITING_TOOLS and path in {
            os.path.normpath(p) for p in call_paths(call)
        }
        if names_file or MEMORY_TOOLS.get(call.name) == store:
            parts += _strings(call.input)
    return _normalized(" ".join(parts))


def _candidate_turns(worktree: Worktree, paths: list[str]) -> list[TurnRecord]:
    """Turns of this worktree whose tools named one of `paths` or used a memory tool."""
    seal, moment = seal_after(worktree), time.time()
    with index.reader(worktree.state_home) as conn:
        cwds = attributed_cwds(conn, worktree.root)
        if not cwds:
            return []
        tools = " OR ".join("instr(char(10) || t.tools || char(10), ?) > 0" for _ in MEMORY_TOOLS)
        rows = conn.execute(
            "SELECT t.*, s.provider, s.turns AS session_turns, f.mtime_ns FROM turns t"
            " JOIN sessions s ON s.session_key = t.session_key JOIN files f ON f.id = t.file_id"
            f" WHERE t.cwd IN ({','.join('?' * len(cwds))}) AND (t.id IN (SELECT turn_id FROM"
            f" edges WHERE kind = 'path' AND value IN ({','.join('?' * len(paths))})) OR {tools})"
            " ORDER BY t.started, t.turn_key",
            [*cwds, *paths, *(f"\n{name}\n" for name in MEMORY_TOOLS)],
        ).fetchall()
        return [turn_record(conn, worktree, row, closure_of(row, moment, seal)) for row in rows]


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
