"""Helpers shared by the readers of the agents added after Claude Code and Codex.

Pure functions over decoded JSON, plus the one bounded way to read a whole small document
(JSON session files, sidecars) through the regular-file check of `source_io`.
"""

from __future__ import annotations

import os
import re
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from git_memory.formats import bounded_json
from git_memory.sessions.providers.base import Document
from git_memory.sessions.providers.claude_code import is_hidden_text
from git_memory.sessions.records import (
    COMPLETED,
    FAILED,
    TOOL_CALL,
    TOOL_RESULT,
    UNKNOWN,
    Diagnostic,
    Event,
    text_of,
)
from git_memory.sessions.source_io import SourceRefused, read_regular
from git_memory.sessions.strict_json import LineRejected, decode_line

# A session document read whole (Gemini's legacy JSON, Copilot's legacy JSON) is refused
# beyond this size; JSON lines are read line by line and have no such limit.
MAX_DOCUMENT_BYTES = 256 * 1024 * 1024

# "Exit Code: 2" (Gemini CLI and Qwen Code shell output), "<exited with exit code 1>" and
# "<shellId: 3 completed with exit code 0>" (Copilot CLI).
_EXIT_CODE = re.compile(r"Exit Code: (-?\d+)|exit code (-?\d+)>")
# The exit code is printed after the command's own output (or, rarely, before it): only
# these ends of a large output are searched.
_EXIT_TAIL, _EXIT_HEAD = 2048, 512


def read_document(path: str, limit: int = MAX_DOCUMENT_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (else `SourceRefused`)."""
    data = read_regular(path, limit)
    if len(data) > limit:
        raise SourceRefused("oversized-document", f"a session document over {limit} bytes")
    return data


def decode_document(data: bytes, diagnostics: list[Diagnostic]) -> Any:
    """A whole JSON document (None, with a diagnostic, when it is not one).

    Lone surrogates are repaired as in JSON lines; the record size limit does not apply."""
    repairs: list[str] = []
    try:
        value = decode_line(data, 0, repairs) if data.lstrip()[:1] == b"{" else None
    except LineRejected as exc:
        diagnostics.append(Diagnostic(exc.code, 0, exc.message))
        return None
    if value is None:
        diagnostics.append(Diagnostic("invalid-json-document", 0, "not a JSON object"))
    diagnostics += [Diagnostic(code, 0, "a lone UTF-16 surrogate was replaced") for code in repairs]
    return value


def decoded_lines(data: bytes, diagnostics: list[Diagnostic]) -> Iterator[tuple[int, Any]]:
    """(offset, record) of every JSON-lines record of a document read whole; a line that is
    not one (a torn line among them) is skipped with a diagnostic at its offset."""
    offset = 0
    for line in data.splitlines(keepends=True):
        at, offset = offset, offset + len(line)
        if not line.strip():
            continue
        repairs: list[str] = []
        try:
            record = decode_line(line, _record_size(line), repairs)
        except LineRejected as exc:
            diagnostics.append(Diagnostic(exc.code, at, exc.message))
            continue
        diagnostics += [Diagnostic(code, at, "a lone surrogate was replaced") for code in repairs]
        yield at, record


def _record_size(line: bytes) -> int:
    """The length of a line of `splitlines(keepends=True)` without its one line break
    (stripping it would copy the line, and the lines hold whole tool outputs)."""
    if line.endswith(b"\r\n"):
        return len(line) - 2
    return len(line) - 1 if line.endswith((b"\n", b"\r")) else len(line)


def tree_identity(path: str, files: list[str]) -> tuple[int, int, int, int]:
    """The identity of a source made of `path` and `files`: `path`'s device and inode, the
    sizes of all plus their count, and the newest modification time (a file that went away
    is left out)."""
    stat = os.stat(path)
    size, newest = stat.st_size + len(files), stat.st_mtime_ns
    for name in files:
        try:
            other = os.stat(name)
        except OSError:
            continue
        size += other.st_size
        newest = max(newest, other.st_mtime_ns)
    return (stat.st_dev, stat.st_ino, size, newest)


def objects(value: Any) -> list[dict[str, Any]]:
    """The JSON objects of `value` when it is a list (anything else has none)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def mapping(value: Any) -> dict[str, Any]:
    """`value` when it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def string(value: Any) -> str | None:
    """`value` when it is a string."""
    return value if isinstance(value, str) else None


def iso_from_ms(value: Any) -> str | None:
    """ISO-8601 UTC of an epoch-milliseconds number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        moment = datetime.fromtimestamp(value / 1000, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def exit_code(text: str) -> int | None:
    """The exit code a shell tool printed into its output text, if any."""
    for window in (text[-_EXIT_TAIL:], text[:_EXIT_HEAD]):
        # A match starts at one of the two phrases: the regex is run only from the first
        # one found (scanning the window for its first letter, `e`, was most of the cost).
        start = min(_found(window, "Exit Code: "), _found(window, "exit code "))
        found = _EXIT_CODE.search(window, start) if start < len(window) else None
        if found is not None:
            return int(found.group(1) or found.group(2))
    return None


def _found(window: str, phrase: str) -> int:
    at = window.find(phrase)
    return len(window) if at < 0 else at


def state_of(status: str | None, output: str) -> str:
    """A result state from a tool status word and the exit code in its output."""
    if status in ("error", "cancelled", "failure", "failed", "rejected"):
        return FAILED
    code = exit_code(output)
    if code is not None:
        return COMPLETED if code == 0 else FAILED
    return COMPLETED if status in ("success", "completed") else UNKNOWN


def json_or_text(value: Any) -> Any:
    """A JSON string decoded (tool arguments are sometimes a JSON string), else `value`."""
    if isinstance(value, str) and value[:1] in ("{", "["):
        try:
            return bounded_json.loads(value)
        except ValueError:
            return value
    return value


def parts_text(parts: Any) -> str:
    """The visible text of a Gemini-style `Part[]` (or plain string); thoughts excluded."""
    if isinstance(parts, str):
        return parts
    if isinstance(parts, dict):
        parts = [parts]
    if not isinstance(parts, list):
        return ""
    texts = [
        part["text"]
        for part in parts
        if isinstance(part, dict) and isinstance(part.get("text"), str) and not part.get("thought")
    ]
    return "".join(texts)


def function_output(response: Any) -> str:
    """The text of a `functionResponse.response` (`{output}` or `{error}`)."""
    if isinstance(response, dict):
        for key in ("output", "error", "content", "result"):
            if key in response:
                return text_of(response[key])
    return text_of(response)


def call_pair(
    offset: int,
    ts: str | None,
    cwd: str | None,
    call: tuple[str | None, str, Any],
    result: tuple[str, str] | None,
) -> list[Event]:
    """A tool call `(id, name, input)` and, when it finished, its result `(text, state)`.

    The output is kept whole here; the sync stores only the head of a large one
    (`ingest`), and `query.fill_outputs` reads it back from the document, checked against
    the crc32 and size of the full text taken here."""
    call_id, name, arguments = call
    events = [Event(TOOL_CALL, offset, ts, cwd, call_id=call_id, name=name, input=arguments)]
    if result is not None:
        text, state = result
        whole = text.encode("utf-8", "surrogatepass")
        events.append(
            Event(
                TOOL_RESULT,
                offset,
                ts,
                cwd,
                text=text,
                call_id=call_id,
                state=state,
                fingerprint=zlib.crc32(whole),
                size=len(whole),
            )
        )
    return events


def full_outputs(document: Document) -> dict[tuple[int, str | None], str]:
    """Every tool result of a document by (position, call id), in full."""
    return {
        (event.offset, event.call_id): event.text
        for event in document.events
        if event.kind == TOOL_RESULT
    }


def person_text(text: str) -> str | None:
    """What a human typed in a user-role text: the text without the context blocks an agent
    put before it (`<system-reminder>…</system-reminder>` and kin), or None when nothing a
    person typed remains. Qwen Code, for one, prepends a reminder to the person's words."""
    rest = text.strip()
    if not rest.startswith(_INJECTED):
        return None if not rest or is_hidden_text(rest) else text
    while rest.startswith(_INJECTED):
        tag = rest[1 : rest.index(">")]
        end = rest.find(f"</{tag}>")
        if end < 0:
            return None  # an unclosed block: all of it is the agent's
        rest = rest[end + len(tag) + 3 :].strip()
    return None if not rest or is_hidden_text(rest) else rest


def is_injected(text: str) -> bool:
    """User-role text that an agent injected rather than a human typed."""
    return person_text(text) is None


_INJECTED = (
    "<session_context>",
    "<hook_context>",
    "<qwen:user-prompt-submit-context>",
    "<current_datetime>",
    "<reminder>",
    "<system-reminder>",
)
