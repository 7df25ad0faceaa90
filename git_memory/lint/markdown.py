"""Markdown as the lint reads it: formatting never hides a secret. Pure.

Two views of a file. `plain` replaces emphasis, strikethrough, code-span backticks, heading
and quote markers by spaces (same length, so offsets stay those of the file): the context
rules read it. `INTRAWORD` is formatting *inside* a word, which a renderer deletes:
`sk-proj-Ab**Cd**Ef…` is one token on screen, so the rules read it joined too
(`lint.normalize`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from git_memory.patterns import compiled

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
INTRAWORD = re.compile(r"(?<=[A-Za-z0-9+/=_-])(?:\*+|~+|`+)(?=[A-Za-z0-9+/=_-])")


# An inline link or image, `[text](url "title")` or `[text][ref]`: rendered, only its text
# is read, so adjacent links `[ghp_ab](#)[cd12](#)` read as one word. The text stops at a
# bracket or a line end and the destination at a parenthesis or space, so the scan is linear.
_LINK = (
    r"(!?\[)([^\[\]\n]{1,256})"
    r"(\]\((?:[^()\s]{0,2048})(?:[ \t]+\"[^\"\n]{0,256}\")?\)|\]\[[^\[\]\n]{0,64}\])"
)
# A footnote reference `[^1]` (not its definition, which starts a line and has a colon).
_FOOTNOTE = r"\[\^[^\[\]\s]{1,32}\](?!:)"


def rendered_link_edits(text: str) -> Iterator[tuple[int, int, str]]:
    """Edits that leave of each link only its text and delete footnote references."""
    if "](" not in text and "][" not in text and "[^" not in text:
        return
    links = list(compiled(_LINK).finditer(text))
    edits = [(m.start(g), m.end(g), "") for m in links for g in (1, 3)]
    inside = [m.span() for m in links]
    for match in compiled(_FOOTNOTE).finditer(text):
        if not any(start < match.end() and match.start() < end for start, end in inside):
            edits.append((match.start(), match.end(), ""))
    yield from sorted(edits)
