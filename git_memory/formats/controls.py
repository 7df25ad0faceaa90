"""Characters that change how text looks without being seen: controls, bidi and invisible
format characters.

A terminal obeys `ESC [ 8 m` (hide what follows) and a carriage return (overwrite the line);
a right-to-left override reorders what a reviewer reads; a zero-width space, a soft hyphen or
a Unicode tag character (U+E0000–E007F) is not drawn at all, yet a model reads it, and it can
split a key so no pattern sees it. Such characters never belong in a memory file, so the lint
blocks them (`HIDDEN`, `invisible_pattern`), and everything a human reviews — diffs, the review
queue — shows them escaped (`escape_controls`) so they cannot hide anything.
"""

from __future__ import annotations

import re

from git_memory.patterns import compiled

# C0 controls but tab and newline, DEL, C1 controls, and the bidi formatting characters
# (Arabic letter mark, LRM/RLM, the embeddings and overrides, the isolates).
_CLASS = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"

# Every character of Unicode category Cf (format: drawn as nothing) not already above, the
# whole tag block, and the other characters fonts draw as nothing: the combining grapheme
# joiner, Hangul fillers, Mongolian variation selectors and the variation selector
# supplement (which can carry a byte each after a visible character).
# tests/lint/test_invisible_characters.py checks this against `unicodedata`.
_INVISIBLE_RANGES = (
    *((0x00AD, 0x00AD), (0x034F, 0x034F), (0x0600, 0x0605), (0x06DD, 0x06DD)),
    *((0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x115F, 0x1160)),
    *((0x180B, 0x180F), (0x200B, 0x200D), (0x2060, 0x2065), (0x206A, 0x206F)),
    *((0x3164, 0x3164), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF9, 0xFFFB)),
    *((0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3)),
    *((0x1D173, 0x1D17A), (0xE0000, 0xE007F), (0xE0100, 0xE01EF)),
)
_INVISIBLE_CLASS = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _INVISIBLE_RANGES)
# A class mixing BMP and astral ranges is scanned several times slower than one of either
# kind: text (CJK prose included) is first searched with the two cheap ones. These patterns,
# like the other invisible-character ones, serve non-ASCII text only: they are compiled the
# first time one is needed (`patterns.compiled`), not by every import of this module.
_BMP_INVISIBLE = (
    "[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _INVISIBLE_RANGES if hi < 0x10000) + "]"
)
_ASTRAL = "[\U00010000-\U0010ffff]"


def has_invisible(text: str) -> bool:
    """Whether `text` may hold an invisible character (`invisible_pattern` finds where)."""
    if text.isascii():
        return False
    return (
        compiled(_BMP_INVISIBLE).search(text) is not None
        or compiled(_ASTRAL).search(text) is not None
    )


# What the lint blocks as a control character: a CR is allowed only as part of a CRLF.
HIDDEN = re.compile(rf"[{_CLASS}]|\r(?!\n)")
# What the lint blocks as invisible (one finding per run of them).
_INVISIBLE = rf"[{_INVISIBLE_CLASS}]+"


def invisible_pattern() -> re.Pattern[str]:
    """What the lint blocks as invisible: one match per run of such characters."""
    return compiled(_INVISIBLE)


# What a reviewer sees escaped: every carriage return too, the Unicode line and paragraph
# separators that `str.splitlines` (and so a diff) would treat as line ends, and every
# invisible character.
_SHOWN_ESCAPED = rf"[{_CLASS}\r\u2028\u2029{_INVISIBLE_CLASS}]"


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def escape_controls(text: str) -> str:
    """`text` with every control, bidi and invisible character written as a visible escape
    (`\\x1b`, `\\u200b`, `\\U000e0041`)."""
    return compiled(_SHOWN_ESCAPED).sub(_escaped, text)


def _json_escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def escape_json_controls(json_text: str) -> str:
    """JSON text (from `json.dumps(..., ensure_ascii=False)`) with every control, bidi and
    invisible character written as a JSON `\\uXXXX` escape: the same document for a parser,
    and nothing hidden from a person reading it. Outside strings JSON text is ASCII, so every
    such character stands inside a string, where the escape is valid."""
    return compiled(_SHOWN_ESCAPED).sub(_json_escaped, json_text)
