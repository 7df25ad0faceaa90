"""Markdown as the lint reads it: formatting never hides a secret. Pure.

Two views of a file. `plain` replaces emphasis, strikethrough, code-span backticks, heading
and quote markers by spaces (same length, so offsets stay those of the file): the context
rules read it. `INTRAWORD` is formatting *inside* a word, which a renderer deletes:
`sk-proj-Ab**Cd**Ef…` is one token on screen, so the rules read it joined too
(`lint.normalize`).
"""

from __future__ import annotations

import re

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
