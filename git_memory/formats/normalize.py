"""Text normalization before counting code points (docs/formats.md).

BOM refused; CRLF → LF; a bare CR refused; trailing spaces and tabs stripped on every line.
Counts are Unicode code points of the result (an emoji ZWJ sequence counts several).
"""

from __future__ import annotations

import re

from git_memory.errors import FormatError

TRAILING_BLANKS = re.compile(r"[\t ]+$", re.MULTILINE)


def normalize_text(text: str) -> str:
    """The normalized form of a scene, doctrine or generated text."""
    if text.startswith("\ufeff"):
        raise FormatError("GM_FORMAT_BOM_NOT_ALLOWED", "text starts with a BOM", line=1)
    unified = text.replace("\r\n", "\n")
    if "\r" in unified:
        line = unified.count("\n", 0, unified.index("\r")) + 1
        raise FormatError(
            "GM_FORMAT_BARE_CR_NOT_ALLOWED", "carriage return without a line feed", line=line
        )
    return TRAILING_BLANKS.sub("", unified)


def code_points(text: str) -> int:
    """Length in Unicode code points (what the limits count)."""
    return len(text)
