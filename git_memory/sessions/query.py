"""Read side of the session index: attribution, closure, turn selection.

Attribution is computed at query time for the asking worktree: a turn belongs to it when its
recorded cwd (resolved at sync time) is the worktree root or inside it, unless a nested
repository or linked worktree between the two owns that directory (the innermost wins). Only
distinct cwds are checked against the filesystem, so a query stays fast on a large index.
"""

from __future__ import annotations

import json
import os
import re
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from git_memory.database import Connection, DatabaseError, Row
from git_memory.errors import GitMemoryError
from git_memory.repo.blobs import commit_exists
from git_memory.sessions import index
from git_memory.sessions.providers.base import SourceFile
from git_memory.sessions.providers.common import full_outputs
from git_memory.sessions.providers.table import line_reader, provider
from git_memory.sessions.records import Event
from git_memory.sessions.source_io import SourceRefused, inflate, open_regular
from git_memory.sessions.strict_json import LineRejected, decode_line
from git_memory.sessions.turns import HARD_SEALED, QUIESCENT, ToolCall, build_turns, closure

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree

DEFAULT_SEAL_AFTER = 30 * 60.0
_DURATION = re.compile(r"^\s*(\d+)\s*(s|sec|m|min|h|d)?\s*$")
_UNITS = {None: 1, "s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}
_TOKEN = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class EvidencePointer:
    """`path` (observed, root-relative), `commit` (direct, exists here), `turn` (direct)."""

    kind: str
    value: str
    strength: str


@dataclass(frozen=True)
class TurnRecord:
    """A turn as recall and `sessions show` see it."""

    turn_key: str
    session_key: str
    provider: str
    ordinal: int
    started: str | None
    ended: str | None
    cwd: str | None
    revision: str
    closure: str
    user_text: str
    assistant_text: str
    tool_calls: tuple[ToolCall, ...]
    skills: tuple[str, ...]
    evidence: tuple[EvidencePointer, ...]


def parse_duration(text: str) -> float:
    """Seconds of `30m`, `2h`, `1d`, `90s` or a bare number of seconds."""
    match = _DURATION.match(text)
    if match is None or int(match.group(1)) <= 0:
        raise GitMemoryError(
            "GM_SEAL_AFTER_INVALID",
            f"memory.sealAfter is not a positive duration: {text!r}",
            hint="git config memory.sealAfter 30m   (s, m, h, d or plain seconds)",
        )
    return float(int(match.group(1)) * _UNITS[match.group(2)])


def seal_after(worktree: Worktree) -> float:
    """`memory.sealAfter` of this worktree in seconds (default 30 minutes)."""
    configured = worktree.config_value("memory.sealAfter")
    return parse_duration(configured) if configured else DEFAULT_SEAL_AFTER


def owner_of(cwd: str, root: Path) -> Path:
    """The innermost repository or worktree root at or above `cwd`, up to `root`."""
    current = Path(cwd)
    while current != root and root in current.parents:
        if os.path.lexists(current / ".git"):
            return current
        current = current.parent
    return root


def attributed_cwds(conn: Connection, root: Path) -> list[str]:
    """Distinct indexed cwds that belong to the worktree at `root`."""
    base = str(root)
    rows = conn.execute(
        "SELECT DISTINCT cwd FROM turns WHERE cwd = ? OR (cwd >= ? AND cwd < ?)",
        (base, base.rstrip("/") + "/", base.rstrip("/") + "0"),
    )
    return [row[0] for row in rows if owner_of(row[0], root) == root]


def _fts_query(query: str) -> str:
    tokens = [t.lower() for t in _TOKEN.findall(query)][:32]
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in tokens)


def _turn_rows(conn: Connection, cwds: list[str] | None, query: str | None) -> list[Row]:
    sql = (
        "SELECT t.*, s.provider, s.turns AS session_turns, f.mtime_ns FROM turns t"
        " JOIN sessions s ON s.session_key = t.session_key JOIN files f ON f.id = t.file_id"
    )
    params: list[Any] = []
    where: list[str] = []
    if query is not None:
        match = _fts_query(query)
        if not match:
            return []
        sql = sql.replace("FROM turns t", "FROM turns_fts JOIN turns t ON t.id = turns_fts.rowid")
        where.append("turns_fts MATCH ?")
        params.append(match)
    if cwds is not None:
        if not cwds:
            return []
        where.append(f"t.cwd IN ({','.join('?' * len(cwds))})")
        params += cwds
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += (
        " ORDER BY bm25(turns_fts), t.started, t.turn_key"
        if query
        else " ORDER BY t.started, t.turn_key"
    )
    return list(conn.execute(sql, params))


def _keep(row: Row, filters: dict[str, Any]) -> bool:
    if filters["providers"] and row["provider"] not in filters["providers"]:
        return False
    if filters["session_keys"] and row["session_key"] not in filters["session_keys"]:
        return False
    if filters["since"] and (row["started"] or "") < filters["since"]:
        return False
    if filters["until"] and (row["started"] or "") >= filters["until"]:
        return False
    for column, key in (
        ("tools", "tool_names"),
        ("skills", "skill_names"),
        ("states", "result_states"),
    ):
        wanted = filters[key]
        if wanted and not set(row[column].split("\n")) & set(wanted):
            return False
    return True


def closure_of(row: Row, now: float, seal: float) -> str:
    return closure(
        terminal=bool(row["terminal"]),
        is_last=row["ordinal"] >= row["session_turns"] - 1,
        idle_seconds=now - row["mtime_ns"] / 1e9,
        seal_after=seal,
    )


def select_turns(
    worktree: Worktree,
    *,
    since: str | None = None,
    until: str | None = None,
    query: str | None = None,
    providers: list[str] | None = None,
    session_keys: list[str] | None = None,
    tool_names: list[str] | None = None,
    skill_names: list[str] | None = None,
    result_states: list[str] | None = None,
    closures: tuple[str, ...] = (HARD_SEALED, QUIESCENT),
    all_worktrees: bool = False,
    limit: int | None = None,
    now: float | None = None,
) -> list[TurnRecord]:
    """Turns of `worktree` (every indexed turn with `all_worktrees`) matching every filter.

    `since`/`until` are canonical UTC timestamps compared with the turn start (`until`
    exclusive); `query` is free text, its words ORed through FTS5 and ranked by BM25 (else
    turns come oldest first); list filters match when any item matches. The default
    `closures` are the ones memory may use.
    """
    filters = {
        "providers": providers,
        "session_keys": session_keys,
        "since": since,
        "until": until,
        "tool_names": tool_names,
        "skill_names": skill_names,
        "result_states": result_states,
    }
    seal, moment = seal_after(worktree), time.time() if now is None else now
    with index.reader(worktree.state_home) as conn:
        cwds = None if all_worktrees else attributed_cwds(conn, worktree.root)
        records: list[TurnRecord] = []
        slices = TranscriptSlices()
        for row in _turn_rows(conn, cwds, query):
            state = closure_of(row, moment, seal)
            if state not in closures or not _keep(row, filters):
                continue
            records.append(turn_record(conn, worktree, row, state, slices))
            if limit is not None and len(records) >= limit:
                break
    return records


def program_sessions(worktree: Worktree, session_keys: list[str]) -> set[str]:
    """The sessions among `session_keys` whose prompts a program wrote (their reader marked
    them: a Codex `exec`/`mcp` source, an Agent SDK entry point), not a person."""
    found: set[str] = set()
    with index.reader(worktree.state_home) as conn:
        for key in session_keys:
            row = conn.execute(
                "SELECT f.reader_state FROM sessions s JOIN files f ON f.id = s.file_id"
                " WHERE s.session_key = ?",
                (key,),
            ).fetchone()
            if row is not None and json.loads(row["reader_state"]).get("program") is True:
                found.add(key)
    return found


def load_events(conn: Connection, file_id: int, start: int, last: int) -> list[Event]:
    """The stored events of one file between two offsets (inclusive); deferred outputs hold
    only their head (see `fill_outputs`)."""

    rows = conn.execute(
        "SELECT offset, kind, ts, cwd, call_id, name, text, input, state, deferred,"
        " fingerprint, size FROM events"
        " WHERE file_id = ? AND offset >= ? AND offset <= ? ORDER BY id",
        (file_id, start, last),
    )
    return [
        Event(
            r[1],
            r[0],
            r[2],
            r[3],
            r[6],
            r[4],
            r[5],
            json.loads(r[7]) if r[7] else None,
            r[8],
            bool(r[9]),
            r[10],
            r[11],
        )
        for r in rows
    ]


class TranscriptSlices:
    """Byte ranges of indexed transcripts for one query.

    A plain file is read range by range (`pread`), a compressed one is inflated once and kept
    while its turns are loaded, so loading every turn of a session costs one pass over its
    large outputs, not one read of the whole file per turn."""

    def __init__(self) -> None:
        self._inflated: tuple[str, bytes] = ("", b"")
        self._outputs: tuple[str, dict[tuple[int, str | None], str]] = ("", {})

    def outputs(self, source: Any) -> dict[tuple[int, str | None], str]:
        """The full tool outputs of a document source, read once per query."""

        if self._outputs[0] != source.path:
            read = provider(source.provider).document
            try:
                found = full_outputs(read(source)) if read is not None else {}
            except (OSError, SourceRefused, DatabaseError):
                found = {}
            self._outputs = (source.path, found)
        return self._outputs[1]

    def read(self, path: str, ranges: list[tuple[int, int]]) -> list[bytes]:
        """The bytes at each (offset, size) of `path` (short or empty when unreadable)."""

        try:
            handle = open_regular(path)
        except (OSError, SourceRefused):
            return [b"" for _ in ranges]
        with handle:
            if not path.endswith(".zst"):
                return [os.pread(handle.fileno(), size, offset) for offset, size in ranges]
            if self._inflated[0] != path:
                try:
                    self._inflated = (path, inflate(handle))
                except SourceRefused:
                    self._inflated = (path, b"")
        data = self._inflated[1]
        return [data[offset : offset + size] for offset, size in ranges]


def fill_outputs(
    conn: Connection,
    file_id: int,
    events: list[Event],
    slices: TranscriptSlices | None = None,
) -> None:
    """Read deferred tool outputs back from their transcript lines.

    The line at the event's offset must still be the one indexed: same size, same crc32 when
    the sync recorded one, and a result for the same call whose head is the stored head.
    Otherwise (the file changed since the last sync) the stored head stays in place. A sync
    does not checksum these large lines; their crc32 (which stands for the output in the
    turn's revision) is taken here, from the bytes just verified.
    """

    wanted = [e for e in events if e.deferred]
    if not wanted:
        return
    path, name, session_id = conn.execute(
        "SELECT f.path, f.provider, s.session_id FROM files f"
        " JOIN sessions s ON s.file_id = f.id WHERE f.id = ?",
        (file_id,),
    ).fetchone()
    slices = slices or TranscriptSlices()
    source = SourceFile(path, name, session_id, "")
    if provider(name).reads_whole(source):
        _fill_from_document(slices.outputs(source), wanted)
        return
    reader = line_reader(name)
    lines = slices.read(path, [(e.offset, e.size) for e in wanted])
    for event, raw in zip(wanted, lines, strict=True):
        crc = zlib.crc32(raw)
        if len(raw) != event.size or event.fingerprint not in (0, crc):
            continue
        try:
            found = reader.deferred_result(decode_line(raw), event.call_id)
        except LineRejected:
            continue
        if found is not None and found[0] == event.text:
            event.text, event.fingerprint = found[1], crc


def _fill_from_document(outputs: dict[tuple[int, str | None], str], wanted: list[Event]) -> None:
    """Full outputs re-read from a document, where they are still the ones indexed."""

    for event in wanted:
        text = outputs.get((event.offset, event.call_id))
        if text is None or not text.startswith(event.text):
            continue
        whole = text.encode("utf-8", "surrogatepass")
        if (zlib.crc32(whole), len(whole)) == (event.fingerprint, event.size):
            event.text = text


def turn_record(
    conn: Connection,
    worktree: Worktree,
    row: Row,
    state: str,
    slices: TranscriptSlices | None = None,
) -> TurnRecord:
    """The full record of one indexed turn (`slices`: shared by the turns of one query)."""
    events = load_events(conn, row["file_id"], row["start_offset"], row["last_offset"])
    fill_outputs(conn, row["file_id"], events, slices)
    turn = build_turns(row["session_key"], events, row["ordinal"])[0]
    return TurnRecord(
        turn_key=row["turn_key"],
        session_key=row["session_key"],
        provider=row["provider"],
        ordinal=row["ordinal"],
        started=row["started"],
        ended=row["ended"],
        cwd=row["cwd"],
        revision=turn.revision,
        closure=state,
        user_text=turn.user_text,
        assistant_text=turn.assistant_text,
        tool_calls=tuple(turn.tools),
        skills=tuple(turn.skills),
        evidence=tuple(_evidence(conn, worktree, row)),
    )


def _evidence(conn: Connection, worktree: Worktree, row: Row) -> list[EvidencePointer]:
    edges = [EvidencePointer("turn", row["turn_key"], "direct")]
    root = worktree.root
    for kind, value in conn.execute(
        "SELECT kind, value FROM edges WHERE turn_id = ?", (row["id"],)
    ):
        if kind == "path":
            # Strictly below the root (`relative_to` is far cheaper than walking `parents`).
            try:
                inside = Path(value).relative_to(root)
            except ValueError:
                continue
            if inside.parts:
                edges.append(EvidencePointer("path", inside.as_posix(), "observed"))
        elif kind == "commit" and _commit_exists(worktree, value):
            edges.append(EvidencePointer("commit", value, "direct"))
    return edges


def _commit_exists(worktree: Worktree, hex_id: str) -> bool:
    return worktree.repository is not None and commit_exists(worktree.repository, hex_id)
