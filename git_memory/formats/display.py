"""Text shown on a terminal: control and bidi characters made visible, never obeyed.

A transcript line or a memory file may carry ESC sequences (`\x1b[8m` hides what follows) or
bidi overrides (U+202E reverses it); printed raw, they change what a reviewer sees.
"""

from __future__ import annotations

import re

_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escaped(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every control character except newline and tab, and every bidi control,
    written as an escape (`\\x1b`, `\\u202e`)."""
    return _HIDDEN.sub(_escaped, text)
