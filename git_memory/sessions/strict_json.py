"""Strict decoding of one transcript line: size, depth and duplicate-key checks.

The fast path is `jiter` (a Rust JSON parser) with its duplicate-key check switched on: it
parses transcript lines several times faster than the stdlib, and unlike orjson it reports a
repeated key instead of silently keeping the last one. Whatever jiter refuses (bad JSON,
repeated keys, lone surrogates, a byte-order mark, nesting beyond its own limit) is decoded
again by the exact stdlib path, which either accepts it just as before or names the problem,
so the accepted values and the diagnostics are always the stdlib's. Without jiter installed
every line takes the stdlib path.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from git_memory.formats.bounded_json import nesting_exceeds

_JITER: Callable[..., Any] | None
try:
    from jiter import from_json as _JITER
except ImportError:  # pragma: no cover - jiter is a declared dependency
    _JITER = None

# Records up to 8 MiB, nesting up to 64 levels.
MAX_RECORD_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 64
# The stdlib parser recurses once per level: nothing deeper than this reaches it.
PARSE_DEPTH = 512


class LineRejected(Exception):
    """A complete line that is not a usable JSON object."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _load_jiter() -> Callable[..., Any] | None:
    return _JITER


# The fast parser in use (a one-item list, so tests can switch it without `global`).
_FAST: list[Callable[..., Any] | None] = [_load_jiter()]


def fast_path(enabled: bool) -> bool:
    """Switch the jiter fast path off (or back on when jiter is installed); returns whether
    it was on. Used by tests that pin the stdlib path's behaviour."""
    was = _FAST[0] is not None
    _FAST[0] = _load_jiter() if enabled else None
    return was


def decode_line(
    raw: bytes, size: int | None = None, repairs: list[str] | None = None
) -> dict[str, Any]:
    """Decode one complete line into a JSON object or raise `LineRejected`.

    `raw` may still end with its CR/LF (JSON whitespace); `size` is then the record's length
    without them. A lone UTF-16 surrogate escape (what JavaScript writes when it cuts an
    emoji in half) cannot be stored as UTF-8: it is replaced by U+FFFD and
    `"lone-surrogate"` is added to `repairs`."""
    length = len(raw) if size is None else size
    if length > MAX_RECORD_BYTES:
        raise LineRejected("oversized-json-record", f"record of {length} bytes is too large")
    value = _fast_decode(raw)
    if type(value) is dict:
        if _too_deep(value, MAX_DEPTH):
            raise LineRejected("too-deep-json-record", f"record nests deeper than {MAX_DEPTH}")
        return value
    # Not an object, or refused by the fast parser: the exact path names the problem (or
    # accepts what jiter refuses and the standard library takes).
    value = _decode_exact(raw)
    if b"\\u" in raw and _has_surrogate(value):
        if repairs is not None:
            repairs.append("lone-surrogate")
        repaired: dict[str, Any] = _without_surrogates(value)
        return repaired
    return value


_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_surrogate(value: Any) -> bool:
    return bool(_SURROGATE.search(json.dumps(value, ensure_ascii=False)))


def _without_surrogates(value: Any) -> Any:
    """`value` with every lone surrogate of its keys and strings replaced by U+FFFD."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_without_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in value.items()}
    return value


def _fast_decode(raw: bytes) -> Any:
    """The fast parser's value, or None when it is missing or refuses the line."""
    fast = _FAST[0]
    if fast is None:
        return None
    try:
        return fast(raw, catch_duplicate_keys=True, cache_mode="keys")
    except ValueError:
        return None


def _pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise LineRejected("duplicate-key", "a JSON object repeats a key")
    return result


def _too_deep(value: Any, limit: int) -> bool:
    # Iterative and touching containers only, so a line with huge strings costs nothing here.
    stack: list[tuple[Any, int]] = [(value, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        item, depth = pop()
        if depth > limit:
            return True
        for child in item.values() if type(item) is dict else item:
            kind = type(child)
            if kind is dict or kind is list:
                push((child, depth + 1))
    return False


def _decode_exact(raw: bytes) -> dict[str, Any]:
    """The reference decoder: stdlib `json` seeing every key of every object. A record
    nested beyond what its recursion safely parses is refused before parsing; one within
    that but deeper than `MAX_DEPTH` after it (so a repeated key is still named first)."""
    if nesting_exceeds(raw, PARSE_DEPTH):
        raise LineRejected("too-deep-json-record", f"record nests deeper than {MAX_DEPTH}")
    try:
        value = json.loads(raw, object_pairs_hook=_pairs_hook)
    except LineRejected:
        raise
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
        raise LineRejected("invalid-json-record", f"not JSON: {type(exc).__name__}") from exc
    if not isinstance(value, dict):
        raise LineRejected("invalid-json-record", "record is not a JSON object")
    if _too_deep(value, MAX_DEPTH):
        raise LineRejected("too-deep-json-record", f"record nests deeper than {MAX_DEPTH}")
    return value
