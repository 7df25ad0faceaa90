"""Characters that change how text looks without being seen: controls, bidi and invisible
format characters.

A terminal obeys `ESC [ 8 m` (hide what follows) and a carriage return (overwrite the line);
a right-to-left override reorders what a reviewer reads; a zero-width space, a soft hyphen or
a Unicode tag character (U+E0000–E007F) is not drawn at all, yet a model reads it, and it can
split a key so no pattern sees it. Such characters never belong in a memory file, so the lint
blocks them (`HIDDEN`, `INVISIBLE`), and everything a human reviews — diffs, the review
queue — shows them escaped (`escape_controls`) so they cannot hide anything.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and the bidi formatting characters
# (Arabic letter mark, LRM/RLM, the embeddings and overrides, the isolates).
_CLASS = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"

# Every character of Unicode category Cf (format: drawn as nothing) not already above, the
# whole tag block, and the other characters fonts draw as nothing: the combining grapheme
# joiner, Hangul fillers, Mongolian variation selectors and the variation selector
# supplement (which can carry a byte each after a visible character).
# tests/lint/test_invisible_characters.py checks this against `unicodedata`.
_INVISIBLE_CLASS = (
    r"\u00ad\u034f\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u180b-\u180f"
    r"\u200b-\u200d\u2060-\u2065\u206a-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
    r"\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    r"\U000e0000-\U000e007f\U000e0100-\U000e01ef"
)

# What the lint blocks as a control character: a CR is allowed only as part of a CRLF.
HIDDEN = re.compile(rf"[{_CLASS}]|\r(?!\n)")
# What the lint blocks as invisible (one finding per run of them).
INVISIBLE = re.compile(rf"[{_INVISIBLE_CLASS}]+")

# What a reviewer sees escaped: every carriage return too, the Unicode line and paragraph
# separators that `str.splitlines` (and so a diff) would treat as line ends, and every
# invisible character.
_SHOWN_ESCAPED = re.compile(rf"[{_CLASS}\r\u2028\u2029{_INVISIBLE_CLASS}]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def escape_controls(text: str) -> str:
    """`text` with every control, bidi and invisible character written as a visible escape
    (`\\x1b`, `\\u200b`, `\\U000e0041`)."""
    return _SHOWN_ESCAPED.sub(_escaped, text)


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
    return _SHOWN_ESCAPED.sub(_json_escaped, json_text)
