"""Normalized records shared by the transcript readers, the turn builder and the index.

A reader turns one JSON object (one transcript line) into zero or more `Event`s. Events are
provider-neutral: the turn builder and the index never look at raw transcript shapes. The
strict line decoder shared by both readers is `strict_json`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

# Tool outputs longer than this are not copied into the index: `sessions/query.py` reads them
# back from the transcript line when a turn is loaded (a sync then costs little more than
# parsing the JSON).
INLINE_LIMIT = 2048

# Event kinds.
USER = "user"  # visible human text on the main line: opens a turn
STEER = "steer"  # human text queued while the agent was busy: joins the current turn
ASSISTANT = "assistant"  # visible assistant text
TOOL_CALL = "tool_call"
TOOL_RESULT = "tool_result"
SKILL = "skill"  # a skill loaded (Codex `<skill>` injection)
TERMINAL = "terminal"  # the provider ended the turn (Codex task_complete / turn_aborted)

COMPLETED = "completed"
FAILED = "failed"
UNKNOWN = "unknown"


@dataclass(slots=True)
class Event:
    """One normalized transcript event at a byte offset of its file."""

    kind: str
    offset: int
    timestamp: str | None = None
    cwd: str | None = None
    text: str = ""
    call_id: str | None = None
    name: str | None = None
    input: Any = None
    state: str | None = None
    # Tool results: a large output stays in the transcript (`deferred`: `text` holds only its
    # head), and the crc32 and size of the line stand for it in the turn's revision. The crc32
    # of a deferred output's line is taken when the output is read back (0 until then).
    deferred: bool = False
    fingerprint: int = 0
    size: int = 0


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A line (or file) the readers could not use; never carries transcript content."""

    code: str
    offset: int
    message: str


def first_sighting(seen: list[str], key: str, limit: int) -> bool:
    """Whether `key` is not among the last `limit` keys of `seen` (then it is remembered)."""
    if key in seen:
        return False
    seen.append(key)
    del seen[:-limit]
    return True


def line_result(
    position: tuple[int, str | None, str | None], text: str, call_id: str | None, state: str
) -> Event:
    """A tool result of a JSON-lines transcript at (offset, timestamp, cwd): a large output
    keeps only its head here and is read back from its line when a turn is loaded."""
    offset, ts, cwd = position
    return Event(
        TOOL_RESULT,
        offset,
        ts,
        cwd,
        text=text[:INLINE_LIMIT],
        call_id=call_id,
        state=state,
        deferred=len(text) > INLINE_LIMIT,
    )


def text_of(value: Any) -> str:
    """Best-effort plain text of a tool output (string, list of blocks, or JSON value)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = []
        for item in value:
            if isinstance(item, dict) and isinstance(item.get("text"), str):
                parts.append(item["text"])
            elif isinstance(item, str):
                parts.append(item)
        return "\n".join(parts)
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def timestamp_of(record: dict[str, Any]) -> str | None:
    """The record's ISO timestamp when it is a string."""
    value = record.get("timestamp")
    return value if isinstance(value, str) else None
