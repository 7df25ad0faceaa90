"""Regular expressions compiled on first use and kept for the process.

A pattern compiled at import costs every start of the modules that hold it, used or not; the
pre-commit hook imports the lint's tables on every commit, and most of their patterns serve
text that ordinary prose never contains (docs/performance.md).
"""

from __future__ import annotations

import re

_COMPILED: dict[str, re.Pattern[str]] = {}


def compiled(source: str) -> re.Pattern[str]:
    """`re.compile(source)`, compiled once per process."""
    found = _COMPILED.get(source)
    if found is None:
        found = _COMPILED[source] = re.compile(source)
    return found
