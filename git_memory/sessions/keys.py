"""Resolve the key prefixes people copy from `sessions list` to full session/turn keys."""

from __future__ import annotations

import re
from pathlib import Path

from git_memory.errors import UsageError
from git_memory.ids import MIN_TYPED, ambiguous
from git_memory.sessions import index

# Any unique prefix of 4 or more hex digits, as git takes an abbreviated object name.
MIN_PREFIX = MIN_TYPED
_HEX = re.compile(r"^[0-9a-f]+$")


def all_keys(state_home: Path) -> list[str]:
    """Every indexed session and turn key: what `resolve_key` matches a prefix against."""
    if not index.index_path(state_home).exists():
        return []
    with index.reader(state_home) as conn:
        rows = conn.execute("SELECT session_key FROM sessions UNION ALL SELECT turn_key FROM turns")
        return [str(row[0]) for row in rows]


def resolve_key(state_home: Path, given: str) -> str:
    """The one sessionKey or turnKey starting with `given` (4 to 64 hex characters); several:
    `GM_ID_AMBIGUOUS` listing them, none: `GM_SESSION_NOT_FOUND` (both usage errors)."""
    key = given.lower()
    if not _HEX.match(key) or not MIN_PREFIX <= len(key) <= 64:
        raise UsageError(
            "GM_REQUEST_INVALID",
            f"KEY must be a sessionKey or turnKey (or at least {MIN_PREFIX} of its first hex "
            "digits)",
        )
    if len(key) == 64 or not index.index_path(state_home).exists():
        return key
    upper = key + "g"  # every key with this prefix sorts between `key` and `key + "g"`
    with index.reader(state_home) as conn:
        found: set[str] = {
            str(row[0])
            for row in conn.execute(
                "SELECT session_key FROM sessions WHERE session_key >= ? AND session_key < ?"
                " UNION SELECT turn_key FROM turns WHERE turn_key >= ? AND turn_key < ?",
                (key, upper, key, upper),
            )
        }
    if len(found) > 1:
        raise ambiguous(given, sorted(found), what="session or turn key")
    if not found:
        raise UsageError(
            "GM_SESSION_NOT_FOUND",
            f"no indexed session or turn key starts with {given!r}",
            hint="git memory sessions list --all",
        )
    return found.pop()
