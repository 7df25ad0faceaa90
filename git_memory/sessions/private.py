"""What the session index knows is private to this machine: session ids, transcript paths and
the home directories the transcripts live under.

The lint recognises such text by its shape and the words around it; the promotion gate also
knows the real values, so an id or path is refused whatever surrounds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from git_memory.errors import GitMemoryError
from git_memory.sessions import index

# Shorter strings would match ordinary prose; real session ids are far longer, and the
# shortest home worth refusing is `/root`.
MIN_ID = 8
MIN_PATH = 5


@dataclass(frozen=True)
class PrivateMarks:
    """Lowercased strings that must not appear in a promoted byte, by kind."""

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
    parts = PurePosixPath(transcript).parts
    for position, part in enumerate(parts):
        if part.startswith(".") and position > 1:
            return str(PurePosixPath(*parts[:position]))
    return None


def _marks(values: set[str], shortest: int) -> frozenset[str]:
    return frozenset(value.lower() for value in values if len(value) >= shortest)


def indexed_private_marks(state_home: Path) -> PrivateMarks:
    """The private strings of every indexed session, and this user's home directory."""
    paths = {str(Path.home()).rstrip("/")}
    ids: set[str] = set()
    if index.index_path(state_home).is_file():
        try:
            with index.reader(state_home) as conn:
                ids = {str(row[0]) for row in conn.execute("SELECT session_id FROM sessions")}
                transcripts = [str(row[0]) for row in conn.execute("SELECT path FROM files")]
        except index.DatabaseError as exc:
            # Fail closed: without the index the gate cannot know what is private.
            raise GitMemoryError(
                "GM_SESSIONS_INDEX_UNREADABLE",
                f"the session index cannot be read ({exc})",
                hint="run `git memory sessions rebuild`, then prepare again",
            ) from exc
        for path in transcripts:
            folder = PurePosixPath(path).parent
            paths |= {path, str(folder)}
            if folder.name.startswith("-"):
                paths.add(folder.name)  # Claude Code's project folder spells out the cwd
            home = _home_of(path)
            if home is not None:
                paths.add(home)
    return PrivateMarks(_marks(ids, MIN_ID), _marks(paths, MIN_PATH))
