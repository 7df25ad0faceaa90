"""What the session index knows is private to this machine: session ids, transcript paths and
the home directories the transcripts live under.

The lint recognises such text by its shape and the words around it; the promotion gate and
the lint of memory files also know the real values, so an id (and, for the gate, a path) is
refused whatever surrounds it. The pre-commit hook reads the index here too, so this module
opens the index as it is (no schema migration, nothing written) and loads neither pydantic
nor pygit2.
"""

from __future__ import annotations

import os

from git_memory.errors import GitMemoryError
from git_memory.paths import SESSIONS_DB
from git_memory.records import Record

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from pathlib import Path

# Shorter strings would match ordinary prose; real session ids are far longer, and the
# shortest home worth refusing is `/root`.
MIN_ID = 8
MIN_PATH = 5


class PrivateMarks(Record):
    """Lowercased strings that must not appear in a promoted byte, by kind.

    A named tuple, not a dataclass: the pre-commit hook imports this module, and `dataclasses`
    (with `inspect`) is a measured cost of its start-up (docs/performance.md).
    """

    session_ids: frozenset[str] = frozenset()
    paths: frozenset[str] = frozenset()

    def found_in(self, text: str) -> tuple[str, str] | None:
        """(kind, mark) of the first private string inside `text`, or None."""
        lowered = text.lower()
        for kind, marks in (("session id", self.session_ids), ("path", self.paths)):
            for mark in sorted(marks, key=len, reverse=True):
                if mark in lowered:
                    return kind, mark
        return None


def _home_of(transcript: str) -> str | None:
    """The directory holding the first hidden directory of the path (`/home/u/.claude/…`)."""
    # Start-up seam (docs/architecture.md): the pre-commit hook loads this module and never
    # needs pathlib.
    from pathlib import PurePosixPath  # noqa: PLC0415

    parts = PurePosixPath(transcript).parts
    for position, part in enumerate(parts):
        if part.startswith(".") and position > 1:
            return str(PurePosixPath(*parts[:position]))
    return None


def _marks(values: set[str], shortest: int) -> frozenset[str]:
    return frozenset(value.lower() for value in values if len(value) >= shortest)


def _indexed_rows(state_home: str) -> tuple[list[str], list[str]]:
    """(session ids, transcript paths) of the index in `state_home`; empty without an index.

    Fails closed: an index that exists but cannot be read means the caller cannot know what
    is private.
    """
    path = os.path.join(state_home, SESSIONS_DB)
    if not os.path.isfile(path):
        return [], []
    # Start-up seam (docs/architecture.md): without a session index the pre-commit hook never
    # loads the database module and sqlite3.
    from git_memory.database import DatabaseError, existing_reader  # noqa: PLC0415

    try:
        with existing_reader(path) as conn:
            ids = [str(row[0]) for row in conn.execute("SELECT session_id FROM sessions")]
            transcripts = [str(row[0]) for row in conn.execute("SELECT path FROM files")]
    except DatabaseError as exc:
        raise GitMemoryError(
            "GM_SESSIONS_INDEX_UNREADABLE",
            f"the session index cannot be read ({exc})",
            hint="run `git memory sessions rebuild`, then try again",
        ) from exc
    return ids, transcripts


def indexed_session_ids(state_home: str) -> frozenset[str]:
    """The lowercased session ids of every indexed session (none without an index)."""
    ids, _ = _indexed_rows(state_home)
    return _marks(set(ids), MIN_ID)


def indexed_private_marks(state_home: Path) -> PrivateMarks:
    """The private strings of every indexed session, and this user's home directory."""
    # Start-up seam (docs/architecture.md): only the promotion gate, never the hook, calls this.
    from pathlib import Path, PurePosixPath  # noqa: PLC0415

    paths = {str(Path.home()).rstrip("/")}
    ids, transcripts = _indexed_rows(str(state_home))
    for path in transcripts:
        folder = PurePosixPath(path).parent
        paths |= {path, str(folder)}
        if folder.name.startswith("-"):
            paths.add(folder.name)  # Claude Code's project folder spells out the cwd
        home = _home_of(path)
        if home is not None:
            paths.add(home)
    return PrivateMarks(_marks(set(ids), MIN_ID), _marks(paths, MIN_PATH))
