"""Private text only this machine knows: its home directory and its indexed session ids.

The pattern rules know the shapes (`/home/…`, a UUID near "session"); these know the values,
which the callers read from the environment and the session index and pass in.
"""

from __future__ import annotations

from collections.abc import Iterable

from git_memory.lint.findings import Finding
from git_memory.lint.raw import RawFinding, excerpt, resolve
from git_memory.lint.rules import ANY_UUID, BLOCK, SESSION_ID_CODE

# Lowercases ASCII only, so offsets in the lowered text are offsets in the file (str.lower
# can lengthen some non-ASCII characters).
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
INDEXED_SESSION_ID_MESSAGE = "this machine's session id (from the session index)"


def ascii_lower(text: str) -> str:
    """`text` with A-Z lowercased and every other character kept at its offset."""
    return text.translate(_ASCII_LOWER)


def present_ids(text: str, ids: frozenset[str]) -> list[str]:
    """The lowercased `ids` that occur in `text` (any case), sorted."""
    found = {ascii_lower(match.group()) for match in ANY_UUID.finditer(text)} & ids
    others = [i for i in ids if not ANY_UUID.fullmatch(i)]
    if others:
        lowered = ascii_lower(text)
        found.update(i for i in others if i in lowered)
    return sorted(found)


def indexed_id_findings(text: str, ids: Iterable[str]) -> list[Finding]:
    """Every occurrence in `text` of one of this machine's indexed session ids (lowercased),
    whatever the words around it."""
    lowered = ascii_lower(text)
    raw: list[RawFinding] = []
    for session_id in ids:
        start = lowered.find(session_id)
        while start >= 0:
            token = text[start : start + len(session_id)]
            raw.append(
                RawFinding(
                    SESSION_ID_CODE,
                    BLOCK,
                    start,
                    excerpt(token),
                    INDEXED_SESSION_ID_MESSAGE,
                    len(token),
                )
            )
            start = lowered.find(session_id, start + 1)
    return resolve(text, raw)


HOME_MESSAGE = "this machine's home directory"
_PATH_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def home_findings(text: str, home: str) -> list[Finding]:
    """Every mention of `home` (this machine's real `$HOME`, wherever it is) as an absolute
    home path: the pattern rule knows `/home/…`, `/Users/…` and `/root`, not `/srv/alice`."""
    home = home.rstrip("/\\")
    if len(home) < 2 or home not in text:
        return []
    code = "GM_LINT_ABSOLUTE_PATH"
    raw: list[RawFinding] = []
    start = text.find(home)
    while start >= 0:
        end = start + len(home)
        if _name_ends(text, end):
            token = text[start:end]
            raw.append(RawFinding(code, BLOCK, start, excerpt(token), HOME_MESSAGE, len(token)))
        start = text.find(home, start + 1)
    return resolve(text, raw)


def _name_ends(text: str, end: int) -> bool:
    """Whether a path name ends at `end` (`/srv/alice` in `/srv/alice/x` or `/srv/alice.`,
    not in `/srv/alicex` or `/srv/alice.bak`)."""
    following = text[end : end + 2]
    if following[:1] == ".":
        following = following[1:]
    return not following or following[0] not in _PATH_NAME_CHARS
