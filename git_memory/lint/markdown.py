"""Markdown as the lint reads it: formatting never hides a secret. Pure.

Two views of a file. `plain` replaces emphasis, strikethrough, code-span backticks, heading
and quote markers by spaces (same length, so offsets stay those of the file): the context
rules read it. `joined_lines` deletes formatting *inside* a word, as a renderer would show
it: `sk-proj-Ab**Cd**Ef…` is one token on screen, so the token rules read it joined too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# Markdown formatting, replaced by spaces of the same length. `_` emphasis is left alone:
# underscores belong to identifiers and keys, and every rule already treats `_` as part of
# a word.
_FORMATTING = re.compile(
    r"^[ \t]{0,3}(?:>[ \t]?)+(?:#{1,6}(?=[ \t]|$))?"
    r"|^[ \t]{0,3}#{1,6}(?=[ \t]|$)"
    r"|`+"
    r"|(?<![A-Za-z0-9])[*~]+|[*~]+(?![A-Za-z0-9])",
    re.MULTILINE,
)
_FORMATTING_CHARS = ("*", "~", "`", "#", ">")


def plain(text: str) -> str:
    """`text` without Markdown emphasis, code spans, heading or quote markers (same length)."""
    if not any(mark in text for mark in _FORMATTING_CHARS):
        return text
    return _FORMATTING.sub(lambda match: " " * len(match.group()), text)


# Emphasis, strikethrough or a code span between two word characters: invisible once
# rendered. `_` is left alone (CommonMark does not emphasize inside words).
_INTRAWORD = re.compile(r"(?<=[A-Za-z0-9+/=_-])(?:\*+|~+|`+)(?=[A-Za-z0-9+/=_-])")


@dataclass(frozen=True)
class JoinedLine:
    """One line with its intraword formatting deleted, and where each character came from."""

    text: str
    origin: tuple[int, ...]  # file offset of each character of `text`
    joints: tuple[int, ...]  # indexes in `text` where formatting was deleted

    def spans_a_joint(self, start: int, end: int) -> bool:
        """Whether [start, end) of `text` reads across deleted formatting."""
        return any(start < joint < end for joint in self.joints)


def joined_lines(text: str) -> Iterator[JoinedLine]:
    """Every line of `text` holding intraword formatting, with that formatting deleted."""
    if not any(mark in text for mark in ("*", "~", "`")):
        return
    next_line = 0
    for match in _INTRAWORD.finditer(text):
        if match.start() < next_line:
            continue
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.end())
        next_line = len(text) if line_end < 0 else line_end
        yield _join(text, line_start, next_line)


def _join(text: str, start: int, end: int) -> JoinedLine:
    pieces: list[str] = []
    origin: list[int] = []
    joints: list[int] = []
    position = start
    for match in _INTRAWORD.finditer(text, start, end):
        pieces.append(text[position : match.start()])
        origin += range(position, match.start())
        joints.append(len(origin))
        position = match.end()
    pieces.append(text[position:end])
    origin += range(position, end)
    return JoinedLine("".join(pieces), tuple(origin), tuple(joints))
