"""Normalized records shared by the transcript readers, the turn builder and the index.

A reader turns one JSON object (one transcript line) into zero or more `Event`s. Events are
provider-neutral: the turn builder and the index never look at raw transcript shapes. This
module also holds the strict line decoder (size, depth and duplicate-key checks) so both
readers reject malformed lines the same way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

# Reference §F: records up to 8 MiB, nesting up to 64 levels.
MAX_RECORD_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 64
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
    # head), and the crc32 and size of the line stand for it in the turn's revision.
    deferred: bool = False
    fingerprint: int = 0
    size: int = 0


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A line (or file) the readers could not use; never carries transcript content."""

    code: str
    offset: int
    message: str


@dataclass(slots=True)
class ReaderOutput:
    """What a reader produced for a batch of lines."""

    events: list[Event] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


class LineRejected(Exception):
    """A complete line that is not a usable JSON object."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise LineRejected("duplicate-key", "a JSON object repeats a key")
    return result


def _too_deep(value: Any, limit: int) -> bool:
    # Iterative and touching containers only, so a line with huge strings costs nothing here.
    stack: list[tuple[Any, int]] = [(value, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        item, depth = pop()
        if depth > limit:
            return True
        for child in item.values() if type(item) is dict else item:
            kind = type(child)
            if kind is dict or kind is list:
                push((child, depth + 1))
    return False


def decode_line(raw: bytes) -> dict[str, Any]:
    """Decode one complete line into a JSON object or raise `LineRejected`."""
    if len(raw) > MAX_RECORD_BYTES:
        raise LineRejected("oversized-json-record", f"record of {len(raw)} bytes is too large")
    try:
        value = json.loads(raw, object_pairs_hook=_pairs_hook)
    except LineRejected:
        raise
    except RecursionError as exc:
        raise LineRejected("too-deep-json-record", "record nests too deeply") from exc
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
        raise LineRejected("invalid-json-record", f"not JSON: {type(exc).__name__}") from exc
    if not isinstance(value, dict):
        raise LineRejected("invalid-json-record", "record is not a JSON object")
    if _too_deep(value, MAX_DEPTH):
        raise LineRejected("too-deep-json-record", f"record nests deeper than {MAX_DEPTH}")
    return value


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
