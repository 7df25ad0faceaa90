"""Letters as a reader sees them: compatibility forms folded, look-alikes read as Latin. Pure.

A key written in fullwidth (`ｇｈｐ＿…`) or mathematical letters (`𝗀𝗁𝗉_…`), or with Cyrillic
or Greek twins of its Latin letters (`ghр_…` with a Cyrillic `р`), reads as the key on
screen and to a model. `fold_edits` turns each such character into the ASCII it is read as:
NFKC first (fullwidth, mathematical, circled, ligatures), then the look-alike table
(`confusables.txt` beside this module: the Unicode TR39 prototypes that are Latin letters
or digits, with where they came from). `space_edits` deletes the Unicode space separators
other than the ASCII space (hair, thin, narrow no-break, ideographic …), which split a key
without a reader noticing.

Both serve non-ASCII text only; the table is read on first use (`patterns.loaded`).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterator

from git_memory.patterns import compiled, loaded

Edit = tuple[int, int, str]

_TABLE = os.path.join(os.path.dirname(__file__), "confusables.txt")
# Every Unicode space separator (category Zs) but the ASCII space.
_SPACES = "[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]"
# Runs of characters NFKC or the table may change: everything outside ASCII.
_NON_ASCII = r"[^\x00-\x7f]+"


def _read_table() -> dict[str, str]:
    table: dict[str, str] = {}
    with open(_TABLE, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("#") or not line.strip():
                continue
            code, reads_as = line.split()
            table[chr(int(code, 16))] = reads_as
    return table


def lookalikes() -> dict[str, str]:
    """Look-alike character → the ASCII letters or digits it reads as."""
    return loaded(_TABLE, _read_table)


def folded_char(char: str, table: dict[str, str]) -> str:
    """What one character reads as: its NFKC form, each character of it through the table."""
    compatible = unicodedata.normalize("NFKC", char)
    return "".join(table.get(part, part) for part in compatible)


def fold_edits(text: str) -> Iterator[Edit]:
    """One edit per character whose folded form differs (non-ASCII text only)."""
    if text.isascii():
        return
    table = lookalikes()
    for match in compiled(_NON_ASCII).finditer(text):
        for index, char in enumerate(match.group(), start=match.start()):
            folded = folded_char(char, table)
            if folded != char and folded.isascii() and not folded.isspace():
                yield index, index + 1, folded


def space_edits(text: str) -> Iterator[Edit]:
    """Every Unicode space separator but the ASCII space, deleted."""
    if text.isascii():
        return
    for match in compiled(_SPACES + "+").finditer(text):
        yield match.start(), match.end(), ""
