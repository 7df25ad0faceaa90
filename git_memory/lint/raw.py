"""Findings before they have a line: what every rule family reports, and how it is placed.

A rule yields `RawFinding`s at character offsets; `resolve` gives each its line and column.
The excerpt shows a few leading characters and the length, never a whole secret.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

from git_memory.formats.controls import HIDDEN
from git_memory.lint.findings import Finding
from git_memory.records import Record

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from git_memory.lint.rules import Severity

EXCERPT_PREFIX = 6


def excerpt(token: str) -> str:
    """A few leading characters and the length; never the whole token (≤ 24 chars).

    A control character among them is replaced by `?`, so an excerpt cannot drive a terminal.
    """
    shown = HIDDEN.sub("?", token[: min(EXCERPT_PREFIX, len(token) // 3)])
    return f"{shown}…[{len(token)} chars]"


class LineIndex:
    """Maps character offsets to 1-based (line, column)."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        position = text.find("\n")
        while position >= 0:
            self.starts.append(position + 1)
            position = text.find("\n", position + 1)

    def locate(self, offset: int) -> tuple[int, int]:
        """(line, column) of `offset`."""
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


class RawFinding(Record):
    """A finding before line/column resolution."""

    code: str
    severity: Severity
    offset: int
    excerpt: str
    message: str
    length: int = 0


def resolve(text: str, raw: Iterable[RawFinding]) -> list[Finding]:
    """Attach line/column and sort by position, then code."""
    raw = list(raw)
    if not raw:
        return []
    lines = LineIndex(text)
    findings = []
    for item in raw:
        line, column = lines.locate(item.offset)
        findings.append(
            Finding(item.code, item.severity, line, column, item.excerpt, item.message, item.offset)
        )
    return sorted(findings, key=lambda f: (f.offset, f.code))
