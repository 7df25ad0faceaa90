"""The one error type library code raises; front ends print it once.

Every code is a stable string `GM_<WHAT>`; tests and scripts match on it, so a code is never
renamed once released. `EXIT_*` constants are the exit statuses docs/troubleshooting.md lists.
"""

from __future__ import annotations

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of a warm
# `context` answer's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

EXIT_OK = 0
EXIT_USER_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130


class GitMemoryError(Exception):
    """A user-fixable failure: a stable code, a one-line message and an optional hint.

    `details` carries structured data (counts, drifted paths, …) for JSON and MCP output.
    """

    exit_code = EXIT_USER_ERROR

    def __init__(
        self,
        code: str,
        message: str,
        hint: str | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        if not code.startswith("GM_"):
            raise ValueError(f"error codes start with GM_: {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.details: dict[str, Any] = dict(details or {})

    def to_json(self) -> dict[str, Any]:
        """The `{code, problem, next}` document shared by JSON output and MCP tool errors."""
        doc: dict[str, Any] = {"code": self.code, "problem": self.message, "next": self.hint}
        if self.details:
            doc["details"] = self.details
        return doc

    def __str__(self) -> str:
        return f"{self.message} [{self.code}]"


class UsageError(GitMemoryError):
    """The request itself is malformed (bad flags, an invalid request document)."""

    exit_code = EXIT_USAGE


class FormatError(GitMemoryError):
    """A memory file does not follow the format; `line` points at the offending line."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(code, message, hint)
        self.line = line
        self.column = column
