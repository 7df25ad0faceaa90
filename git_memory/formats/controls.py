"""Characters that change how text looks without being seen: control and bidi characters.

A terminal obeys `ESC [ 8 m` (hide what follows) and a carriage return (overwrite the line);
a right-to-left override reorders what a reviewer reads. Such characters never belong in a
memory file, so the lint blocks them (`HIDDEN`), and everything a human reviews — diffs,
the review queue — shows them escaped (`escape_controls`) so they cannot hide anything.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and the bidi formatting characters
# (Arabic letter mark, LRM/RLM, the embeddings and overrides, the isolates).
_CLASS = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"

# What the lint blocks: a CR is allowed only as part of a CRLF line end.
HIDDEN = re.compile(rf"[{_CLASS}]|\r(?!\n)")

# What a reviewer sees escaped: every carriage return too, and the Unicode line and
# paragraph separators that `str.splitlines` (and so a diff) would treat as line ends.
_SHOWN_ESCAPED = re.compile(rf"[{_CLASS}\r\u2028\u2029]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str) -> str:
    """`text` with every control and bidi character written as a visible escape (`\\x1b`)."""
    return _SHOWN_ESCAPED.sub(_escaped, text)
