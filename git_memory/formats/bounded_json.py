"""JSON from files and peers we do not control, under size, depth and number caps (pure).

The standard library's parser recurses once per nesting level, so a document nested 100,000
deep ends in `RecursionError` somewhere inside it (or, in a server loop, leaves it unable to
answer); an integer of 100,000 digits ends in a bare `ValueError` from `int()`, and a float
literal of any length is parsed at a cost that grows with it. So every untrusted document is
measured before it is parsed: its size, then the depth of its brackets outside strings (a
linear scan done by the regular-expression engine, never by recursion), and each number
literal's length while it is parsed. Anything beyond a cap raises `JsonRefused`, a
`ValueError` like the parser's own errors, so callers that already treat invalid JSON as
unusable treat these the same way.
"""

from __future__ import annotations

import json
import math
import re

from git_memory.patterns import compiled

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any

# Deep enough for every document this tool reads or writes (requests, manifests, state).
MAX_DEPTH = 64
# No real number needs more characters (a float has at most 17 significant digits).
MAX_NUMBER_CHARS = 64
DEFAULT_MAX_BYTES = 8 * 1024 * 1024

# A complete string literal, or an unterminated one up to the end of the text (consumed
# possessively, so a text of many lone quotes is still scanned once), or a run of anything
# that is neither a bracket nor a quote.
_NOT_STRUCTURE = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)|[^"\[\]{}]++', re.DOTALL)
# The bytes form and the empty pairs are compiled on first use (`re` caches the one,
# `git_memory.patterns` the other): the pre-commit hook reads text, and few documents open
# more brackets than the limit.
_NOT_STRUCTURE_BYTES = rb'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)|[^"\[\]{}]++'
_EMPTY_PAIR = r"\[\]|\{\}"


class JsonRefused(ValueError):
    """A document refused before or while parsing (too large, too deep, a huge number)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def nesting_exceeds(text: str | bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether the brackets of `text` (outside strings) may nest deeper than `limit`.

    Each round removes the innermost empty pairs, so at most `limit` rounds of linear scans
    decide it whatever the depth of the text. When brackets stop pairing (a malformed text),
    the rounds done plus the openers left bound the depth any parser could reach."""
    if isinstance(text, bytes):
        skeleton = re.compile(_NOT_STRUCTURE_BYTES, re.DOTALL).sub(b"", text).decode("ascii")
    else:
        skeleton = _NOT_STRUCTURE.sub("", text)
    openers = skeleton.count("[") + skeleton.count("{")
    if openers <= limit:
        return False
    if re.search(r"[\[{]" + f"{{{limit + 1}}}", skeleton):
        return True  # the usual attack: one long run of openers
    for rounds in range(limit + 1):
        if not skeleton:
            return False
        skeleton, removed = compiled(_EMPTY_PAIR).subn("", skeleton)
        if not removed:
            return rounds + skeleton.count("[") + skeleton.count("{") > limit
    return True


def _number(literal: str) -> str:
    if len(literal) > MAX_NUMBER_CHARS:
        raise JsonRefused(f"a number of {len(literal)} characters")
    return literal


def _int(literal: str) -> int:
    return int(_number(literal))


def _float(literal: str) -> float:
    value = float(_number(literal))
    if not math.isfinite(value):
        raise JsonRefused(f"a number out of range ({literal})")
    return value


def _constant(name: str) -> Any:
    raise JsonRefused(f"{name} is not JSON")


def loads(
    text: str | bytes,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_depth: int = MAX_DEPTH,
    **options: Any,
) -> Any:
    """`json.loads(text, **options)` after the caps: `JsonRefused` (a `ValueError`) when the
    text is larger than `max_bytes`, nests deeper than `max_depth`, or holds a number of more
    than 64 characters, an out-of-range float, NaN or Infinity. Bytes that are not UTF-8 raise
    `UnicodeDecodeError`, also a `ValueError`."""
    size = len(text.encode("utf-8", "surrogatepass")) if isinstance(text, str) else len(text)
    if size > max_bytes:
        raise JsonRefused(f"a document of {size} bytes (the limit is {max_bytes})")
    if nesting_exceeds(text, max_depth):
        raise JsonRefused(f"a document nested deeper than {max_depth} levels")
    options.setdefault("parse_int", _int)
    options.setdefault("parse_float", _float)
    options.setdefault("parse_constant", _constant)
    return json.loads(text, **options)
