"""Turns from normalized events: boundaries, keys, revision, evidence candidates (pure).

A turn starts at each visible main-line user message and owns everything up to the next
one. `sessionKey = digest(["session", provider, sessionId])`,
`turnKey = digest([sessionKey, offset of the opening user record])`, and
`revision = digest(canonical turn content)`, so a turn that grows gets a new revision.
Closure is decided at query time (`closure`), because quiescence depends on the clock and
on `memory.sealAfter`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

from git_memory.contracts.canonical import MAX_SAFE_INTEGER, digest
from git_memory.sessions.records import (
    ASSISTANT,
    COMPLETED,
    INLINE_LIMIT,
    SKILL,
    STEER,
    TERMINAL,
    TOOL_CALL,
    TOOL_RESULT,
    UNKNOWN,
    USER,
    Event,
)

_SAFE = MAX_SAFE_INTEGER

HARD_SEALED = "hard-sealed"
QUIESCENT = "quiescent"
OPEN = "open"

# Claude Code and Codex, Gemini CLI and Qwen Code (`absolute_path`), OpenCode (`filePath`),
# Antigravity (`AbsolutePath` of view_file, `TargetFile` of write_to_file).
_PATH_KEYS = (
    "file_path",
    "path",
    "notebook_path",
    "absolute_path",
    "filePath",
    "AbsolutePath",
    "TargetFile",
)
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", re.MULTILINE)
_PATCH_MOVE = re.compile(r"^\*\*\* Move to: (.+)$", re.MULTILINE)
_HEX40 = re.compile(r"(?<![0-9a-f])[0-9a-f]{40}(?![0-9a-f])")
_SHELL_TOOLS = frozenset(
    [
        "bash",
        "exec",
        "exec_command",
        "shell",
        "shell_command",
        "terminal",
        "powershell",
        "local_shell",
        "run_shell_command",
        "run_terminal_cmd",
        "run_in_terminal",
        "run_command",
    ]
)
# Every ASCII character as "1" (a lower-case hex digit) or "0": a commit id is a run of forty 1s.
_HEX_MARKS = {code: "1" if chr(code) in "0123456789abcdef" else "0" for code in range(128)}
_HEX_RUN = "1" * 40
_GIT_COMMAND = re.compile(r"\bgit\b[^\n|;&]*\b(?:commit|rev-parse|show|log|rev-list)\b")


@dataclass(slots=True)
class ToolCall:
    """A tool call paired with its result (`output`/`state` stay unset without one)."""

    call_id: str | None
    name: str
    input: Any
    output: str | None = None
    state: str = UNKNOWN
    # crc32 and size of the result's transcript line (stand-ins for the output in `revision`).
    fingerprint: int = 0
    size: int = 0


@dataclass(slots=True)
class Turn:
    """One turn of a session with everything it owns."""

    ordinal: int
    start_offset: int
    started: str | None
    cwd: str | None
    last_offset: int = 0
    ended: str | None = None
    user: list[str] = field(default_factory=list)
    assistant: list[str] = field(default_factory=list)
    tools: list[ToolCall] = field(default_factory=list)
    skills: list[str] = field(default_factory=list)
    terminal: bool = False
    turn_key: str = ""
    revision: str = ""

    @property
    def user_text(self) -> str:
        """Visible human text of the turn."""
        return "\n\n".join(self.user)

    @property
    def assistant_text(self) -> str:
        """Visible assistant text of the turn."""
        return "\n\n".join(self.assistant)


@functools.lru_cache(maxsize=1024)
def session_key(provider: str, session_id: str) -> str:
    """`digest(["session", provider, sessionId])`."""
    return digest(["session", provider, session_id])


def turn_key(session: str, offset: int) -> str:
    """`digest([sessionKey, byte offset of the opening user record])`."""
    if session.isascii() and session.isalnum() and type(offset) is int and 0 <= offset <= _SAFE:
        # The canonical JSON of these two needs no escaping or normalization: build it directly.
        return hashlib.sha256(f'["{session}",{offset}]'.encode()).hexdigest()
    return digest([session, offset])


def build_turns(
    session: str, events: list[Event], first_ordinal: int = 0, *, revisions: bool = True
) -> list[Turn]:
    """Group events into turns; events before the first user message are dropped.

    `revisions=False` skips the revision digests (a stored turn already has its revision).
    """
    turns: list[Turn] = []
    calls: dict[str, ToolCall] = {}
    for event in events:
        if event.kind == USER:
            turns.append(Turn(first_ordinal + len(turns), event.offset, event.timestamp, event.cwd))
            calls = {}
        if not turns:
            continue
        _absorb(turns[-1], event, calls)
    for turn in turns:
        _finish(session, turn, revisions)
    return turns


def _absorb(turn: Turn, event: Event, calls: dict[str, ToolCall]) -> None:
    turn.last_offset = event.offset
    turn.ended = event.timestamp or turn.ended
    if turn.cwd is None and event.cwd is not None:
        turn.cwd = event.cwd
    kind = event.kind
    if kind in (USER, STEER):
        turn.user.append(event.text)
    elif kind == ASSISTANT:
        turn.assistant.append(event.text)
    elif kind == TOOL_CALL:
        call = ToolCall(event.call_id, event.name or "", event.input, state=event.state or UNKNOWN)
        turn.tools.append(call)
        if event.call_id:
            calls[event.call_id] = call
    elif kind == TOOL_RESULT:
        paired = calls.get(event.call_id or "")
        if paired is not None:
            paired.output, paired.state = event.text, event.state or UNKNOWN
            paired.fingerprint, paired.size = event.fingerprint, event.size
    elif kind == SKILL and event.name and event.name not in turn.skills:
        turn.skills.append(event.name)
    elif kind == TERMINAL:
        turn.terminal = True


def _finish(session: str, turn: Turn, revisions: bool) -> None:
    for call in turn.tools:
        skill = _skill_name(call)
        if skill and call.state == COMPLETED and skill not in turn.skills:
            turn.skills.append(skill)
    turn.turn_key = turn_key(session, turn.start_offset)
    if revisions:
        turn.revision = digest(content(turn))


def content(turn: Turn) -> dict[str, Any]:
    """The canonical content of a turn (what its revision covers).

    Tool inputs enter as the sha256 of their sorted JSON text (inputs may hold floats, which
    canonical JSON refuses, and walking big inputs node by node is slow); a tool output enters
    as the crc32 and size of its transcript line (for a large output, taken when it is read
    back from the transcript), so outputs are never hashed. Any change of the turn's text,
    calls or result lines changes the revision.
    """
    return {
        "user": turn.user,
        "assistant": turn.assistant,
        "tools": [
            {
                "callId": call.call_id,
                "name": call.name,
                "inputSha256": _input_digest(call.input),
                "resultState": call.state,
                "resultLine": [call.fingerprint, call.size],
            }
            for call in turn.tools
        ],
        "skills": turn.skills,
    }


def _input_digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _skill_name(call: ToolCall) -> str | None:
    if call.name != "Skill" or not isinstance(call.input, dict):
        return None
    for key in ("skill", "name", "command"):
        if isinstance(call.input.get(key), str):
            return str(call.input[key])
    return None


def closure(*, terminal: bool, is_last: bool, idle_seconds: float, seal_after: float) -> str:
    """`hard-sealed` (a later user turn or a terminal event), `quiescent` (tail turn of a file
    unchanged for `seal_after`), else `open`."""
    if terminal or not is_last:
        return HARD_SEALED
    return QUIESCENT if idle_seconds >= seal_after else OPEN


def observed_paths(turn: Turn) -> list[str]:
    """Absolute, normalized paths the turn's tools read or edited."""
    found: list[str] = []
    for call in turn.tools:
        for raw in call_paths(call):
            base = turn.cwd or "/"
            path = os.path.normpath(os.path.join(base, raw))
            if path not in found:
                found.append(path)
    return found


def call_paths(call: ToolCall) -> list[str]:
    """The paths a tool call names as it recorded them (file keys, patch headers)."""
    raw: list[str] = []
    value = call.input
    if isinstance(value, dict):
        raw += [value[k] for k in _PATH_KEYS if isinstance(value.get(k), str) and value[k]]
        value = value.get("input") or value.get("patch") or value.get("command")
    if isinstance(value, list):
        value = "\n".join(v for v in value if isinstance(v, str))
    if isinstance(value, str) and "*** " in value:
        raw += [m.strip() for m in _PATCH_FILE.findall(value) + _PATCH_MOVE.findall(value)]
    return raw


def commit_candidates(turn: Turn) -> list[str]:
    """40-hex ids printed by successful git commands of the turn (existence checked later)."""
    found: list[str] = []
    for call in turn.tools:
        if call.state != COMPLETED or call.name.lower() not in _SHELL_TOOLS or not call.output:
            continue
        if not _GIT_COMMAND.search(_command_of(call.input)):
            continue
        # Commit ids printed by git sit near the top of its output; scanning only the part a
        # sync keeps inline (INLINE_LIMIT) gives the same edges after a full read or a resume.
        head = call.output[:INLINE_LIMIT]
        # The pattern is tried at every letter a-f of English text; without 40 hex digits in
        # a row it cannot match (a cheap check of ASCII text only).
        if head.isascii() and _HEX_RUN not in head.translate(_HEX_MARKS):
            continue
        for hex_id in _HEX40.findall(head):
            if hex_id not in found:
                found.append(hex_id)
    return found


def _command_of(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("command") or value.get("cmd") or ""
    if isinstance(value, list):
        return " ".join(v for v in value if isinstance(v, str))
    return value if isinstance(value, str) else ""
