"""A row of the tools' own words (`reports.py`, `reports_scripting.py`): the outcome a line
of a tool's output reports, and how the row is written."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class Outcome(StrEnum):
    """The observed result of one command (or one simple command of a line)."""

    WORKED = "worked"
    FAILED = "failed"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Report:
    """One way a tool says how its run ended."""

    tool: str
    outcome: Outcome
    kind: str | None
    hint: str
    pattern: re.Pattern[str]
    example: str


def row(
    tool: str, outcome: Outcome, kind: str | None, *, hint: str, pattern: str, example: str
) -> Report:
    return Report(tool, outcome, kind, hint, re.compile(pattern, re.MULTILINE), example)


W, F = Outcome.WORKED, Outcome.FAILED
