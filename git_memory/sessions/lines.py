"""Transcript lines → events and diagnostics (the parsing half of indexing one file).

Lines come from an iterator (a file read through a large buffer, or `io.BytesIO`), each
still ending with its own newline: JSON allows the trailing CR/LF, so no line is copied
again before decoding. The unterminated last line is held back.
"""

from __future__ import annotations

import io
import zlib
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from git_memory.sessions.providers.base import LineReader
from git_memory.sessions.providers.table import line_reader
from git_memory.sessions.records import TOOL_RESULT, Diagnostic, Event
from git_memory.sessions.source_io import Skipped
from git_memory.sessions.strict_json import MAX_RECORD_BYTES, LineRejected, decode_line


def reader_of(provider: str) -> LineReader:
    """The JSON-lines reader of a provider."""
    return line_reader(provider)


class ProbedLines:
    """Passes lines on and keeps the first and last `probe` bytes of the complete ones
    (what a file's checkpoint digests cover)."""

    def __init__(self, lines: Iterable[bytes | Skipped], probe: int) -> None:
        self._lines = lines
        self._probe = probe
        self.head = b""
        self._tail: deque[bytes] = deque()
        self._tail_size = 0

    def __iter__(self) -> Iterator[bytes | Skipped]:
        probe, tail = self._probe, self._tail
        for line in self._lines:
            if isinstance(line, Skipped):
                if len(self.head) < probe:
                    self.head += line.prefix[: probe - len(self.head)]
                tail.clear()
                tail.append(line.suffix)
                self._tail_size = len(line.suffix)
            elif line.endswith(b"\n"):
                if len(self.head) < probe:
                    self.head += line[: probe - len(self.head)]
                tail.append(line)
                self._tail_size += len(line)
                while self._tail_size - len(tail[0]) >= probe:
                    self._tail_size -= len(tail.popleft())
            yield line

    def boundary(self) -> bytes:
        """The last `probe` bytes of the complete lines seen."""
        parts: list[bytes] = []
        need = self._probe
        for line in reversed(self._tail):
            if need <= 0:
                break
            part = line[-need:] if len(line) > need else line
            parts.append(part)
            need -= len(part)
        return b"".join(reversed(parts))


# What a reader can raise on a JSON value of an unexpected shape.
SHAPE_ERRORS = (TypeError, ValueError, AttributeError, KeyError, IndexError, RecursionError)
_REPAIRED = {"lone-surrogate": "a lone UTF-16 surrogate was replaced by U+FFFD"}


def parse(
    provider: str, data: bytes, base: int, state: dict[str, Any]
) -> tuple[list[Event], list[Diagnostic], int]:
    """`parse_lines` of the lines of `data`."""
    return parse_lines(provider, io.BytesIO(data), base, state)


def parse_lines(
    provider: str, lines: Iterable[bytes | Skipped], base: int, state: dict[str, Any]
) -> tuple[list[Event], list[Diagnostic], int]:
    """Events and diagnostics of the complete lines (the first one starting at byte `base`);
    returns the offset just after the last complete line."""
    reader = reader_of(provider)
    read_record, unknown_type = reader.read_record, reader.unknown_type
    events: list[Event] = []
    diagnostics: list[Diagnostic] = []
    unknown: list[str] = state.setdefault("unknown", [])
    position = base
    for line in lines:
        if isinstance(line, Skipped):
            message = f"record of {line.length} bytes is too large (at most {MAX_RECORD_BYTES})"
            diagnostics.append(Diagnostic("oversized-json-record", position, message))
            position += line.length
            continue
        if not line.endswith(b"\n"):
            break  # the unterminated tail is held back
        offset = position
        position += len(line)
        size = len(line) - (2 if line.endswith(b"\r\n") else 1)
        if size == 0 or line.isspace():
            continue
        repairs: list[str] = []
        try:
            record = decode_line(line, size, repairs)
        except LineRejected as exc:
            diagnostics.append(Diagnostic(exc.code, offset, exc.message))
            continue
        diagnostics += [Diagnostic(code, offset, _REPAIRED[code]) for code in repairs]
        try:
            found = read_record(record, offset, state)
        except SHAPE_ERRORS as exc:
            # A record of a shape no reader anticipated is skipped, never a failed sync.
            message = f"unexpected record shape ({type(exc).__name__})"
            diagnostics.append(Diagnostic("unreadable-record", offset, message))
            continue
        for event in found:
            if event.kind == TOOL_RESULT:
                # Large outputs are checksummed when read back (query.fill_outputs), not here.
                event.size = size
                if not event.deferred:
                    event.fingerprint = zlib.crc32(line[:size])
        events += found
        odd = unknown_type(record, state)
        if odd is not None and odd not in unknown:
            unknown.append(odd)
            diagnostics.append(
                Diagnostic("unknown-record-type", offset, f"unknown type {odd[:40]!r}")
            )
    return events, diagnostics, position
