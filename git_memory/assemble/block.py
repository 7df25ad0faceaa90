"""Splice the generated memory block into `CLAUDE.md` / `AGENTS.md` (pure bytes in, bytes out).

The block sits between a BEGIN and an END marker line. Everything outside the markers belongs
to the user and is kept byte for byte. The file is handled as bytes so a file in any encoding
(or with CRLF line ends) is never re-encoded: the markers are ASCII.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from git_memory.errors import GitMemoryError
from git_memory.formats.generated_block import BEGIN_MARKER, BEGINS, END_MARKER, ENDS

__all__ = ["BEGIN_MARKER", "END_MARKER", "Splice", "remove_block", "splice_block"]

_BEGINS = frozenset(m.encode() for m in BEGINS)
_ENDS = frozenset(m.encode() for m in ENDS)

SpliceAction = Literal["appended", "replaced", "unchanged"]


@dataclass(frozen=True)
class Splice:
    """The new file bytes and what happened to the block."""

    data: bytes
    action: SpliceAction


def _marker_lines(data: bytes) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(start, end) byte spans of BEGIN and END marker lines (line ends excluded)."""
    begins: list[tuple[int, int]] = []
    ends: list[tuple[int, int]] = []
    offset = 0
    for line in data.split(b"\n"):
        # A marker line may carry a CR (CRLF file) or trailing blanks; it still counts.
        stripped = line.rstrip(b"\r\t ").lstrip(b"\t ")
        span = (offset, offset + len(line))
        if stripped in _BEGINS:
            begins.append(span)
        elif stripped in _ENDS:
            ends.append(span)
        offset += len(line) + 1
    return begins, ends


def is_marker_line(line: str) -> bool:
    """Whether `line` would be read as a BEGIN or END marker."""
    stripped = line.strip("\r\t ").encode("utf-8", "surrogatepass")
    return stripped in _BEGINS or stripped in _ENDS


def markers_error(problem: str) -> GitMemoryError:
    """The refusal for a file whose markers cannot be trusted."""
    return GitMemoryError(
        "GM_ASSEMBLY_MARKERS",
        f"cannot place the generated memory block: {problem}",
        hint=(
            "leave exactly one BEGIN GIT MEMORY line followed by one END GIT MEMORY line, "
            "or remove both so the block is appended again"
        ),
        details={"problem": problem},
    )


def _gap(existing: bytes) -> bytes:
    """One blank line between the user's text and an appended block."""
    if not existing or existing.endswith(b"\n\n"):
        return b""
    return b"\n" if existing.endswith(b"\n") else b"\n\n"


def splice_block(existing: bytes | None, block: str) -> Splice:
    """Put `block` (BEGIN line through END line, no final newline) into `existing`.

    No markers: append after one blank line, followed by a newline. One ordered pair: replace
    the marker lines and everything between them. Anything else is refused
    (`GM_ASSEMBLY_MARKERS`).
    """
    current = existing or b""
    encoded = block.encode("utf-8")
    begins, ends = _marker_lines(current)
    if not begins and not ends:
        data = current + _gap(current) + encoded + b"\n"
        return Splice(data, "appended")
    if len(begins) != 1 or len(ends) != 1:
        missing = "BEGIN" if not begins else "END" if not ends else None
        problem = f"the {missing} marker is missing" if missing else "a marker is duplicated"
        raise markers_error(problem)
    (begin_start, _), (end_start, end_stop) = begins[0], ends[0]
    if end_start < begin_start:
        raise markers_error("the END marker comes before the BEGIN marker")
    data = current[:begin_start] + encoded + current[end_stop:]
    return Splice(data, "unchanged" if data == current else "replaced")


def remove_block(existing: bytes) -> bytes:
    """`existing` without the block and the blank line an append put before it.

    No markers: unchanged. Markers that cannot be trusted are refused as by `splice_block`.
    """
    begins, ends = _marker_lines(existing)
    if not begins and not ends:
        return existing
    if len(begins) != 1 or len(ends) != 1 or ends[0][0] < begins[0][0]:
        raise markers_error("the markers are not one BEGIN line followed by one END line")
    before, after = existing[: begins[0][0]], existing[ends[0][1] :].removeprefix(b"\n")
    if not after:
        before = before.rstrip(b"\n") + b"\n" if before.strip() else b""
    return before + after
