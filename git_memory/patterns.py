"""Regular expressions compiled on first use and kept for the process.

A pattern compiled at import costs every start of the modules that hold it, used or not; the
pre-commit hook imports the lint's tables on every commit, and most of their patterns serve
text that ordinary prose never contains (docs/performance.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")

_COMPILED: dict[str, re.Pattern[str]] = {}


def compiled(source: str) -> re.Pattern[str]:
    """`re.compile(source)`, compiled once per process."""
    found = _COMPILED.get(source)
    if found is None:
        found = _COMPILED[source] = re.compile(source)
    return found


_LOADED: dict[str, object] = {}


def loaded(name: str, build: Callable[[], T]) -> T:
    """`build()`, called once per process for `name` (a data table read on first use)."""
    if name not in _LOADED:
        _LOADED[name] = build()
    return _LOADED[name]  # type: ignore[return-value]
