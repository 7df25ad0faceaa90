"""What the lint reports: findings at a line and column, and the spans exempt from token rules.

Apart from the engine (`lint/engine.py`) because the format checks (`lint/files.py`) report
findings too, and the engine runs the format checks.
"""

from __future__ import annotations

from git_memory.lint.rules import BLOCK
from git_memory.records import Record

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from git_memory.lint.rules import Severity

MAX_MESSAGE = 120


class Span(Record):
    """A [start, end) character range exempt from the entropy and hex-run rules."""

    start: int
    end: int

    def covers(self, start: int, end: int) -> bool:
        """Whether this span fully covers [start, end)."""
        return self.start <= start and end <= self.end


class Finding(Record):
    """One lint finding. `offset` is the character index; line/column are 1-based."""

    code: str
    severity: Severity
    line: int
    column: int
    excerpt: str
    message: str
    offset: int = 0

    @property
    def blocks(self) -> bool:
        """Whether this finding stops a commit or a promotion."""
        return self.severity == BLOCK

    def to_json(self) -> dict[str, object]:
        """The finding as in the `git-memory-lint@v1` document."""
        return {
            "code": self.code,
            "severity": self.severity,
            "line": self.line,
            "column": self.column,
            "excerpt": self.excerpt,
            "message": self.message,
        }


def format_finding(code: str, message: str, line: int | None, column: int | None) -> Finding:
    """A format error as a blocking finding (message cut to 120 chars)."""
    return Finding(code, BLOCK, line or 1, column or 1, "", message[:MAX_MESSAGE], 0)
