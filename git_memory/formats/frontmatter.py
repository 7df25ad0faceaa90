"""The `key: value` line dialect shared by entry frontmatter and the scene META block.

Not YAML: each line is `key: value`; a value that looks like JSON (starts with `[`, `{` or `"`,
is `true`/`false`/`null`, or is number-shaped) must be JSON, and a `[`/`{` value that does not
balance on its line continues on the following lines. Any other value is a bare string, which
may not contain `#` (so a stray comment is an error, not data).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from git_memory.errors import FormatError
from git_memory.patterns import compiled
from git_memory.records import Record

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any

KEY_LINE = re.compile(r"([a-z_]+): (.+)", re.DOTALL)
NUMBER_SHAPED = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
JSON_WORDS = frozenset({"true", "false", "null"})
MAX_JSON_DEPTH = 16
# The characters JavaScript's String.prototype.trim removes: the original tool trims with it,
# and Python's str.strip() differs (it keeps U+FEFF and removes U+001C–U+001F, U+0085).
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(value: str) -> str:
    """Trim whitespace exactly as the original tool does (JavaScript `trim`)."""
    return value.strip(JS_WHITESPACE)


# The records here are named tuples, not dataclasses: the pre-commit hook parses every staged
# entry, and `dataclasses` (with `inspect`) is a measured cost of its start-up
# (docs/performance.md).
class Field(Record):
    """One parsed `key: value` item; `line` is 1-based in the whole file."""

    key: str
    value: Any
    line: int


class Dialect(Record):
    """Error codes that differ between entry frontmatter and scene META."""

    invalid_line: str = "GM_FORMAT_INVALID_LINE"


ENTRY_DIALECT = Dialect()
META_DIALECT = Dialect(invalid_line="GM_FORMAT_META_INVALID_LINE")


def needs_json(value: str) -> bool:
    """Whether a (trimmed) value must be read as JSON."""
    return (
        value[:1] in ("[", "{", '"')
        or value in JSON_WORDS
        or NUMBER_SHAPED.fullmatch(value) is not None
    )


def can_be_bare(value: str) -> bool:
    """Whether a string can be written unquoted and read back unchanged."""
    return (
        value != ""
        and js_trim(value) == value
        and not any(ch in value for ch in "\n\r#")
        and not needs_json(value)
    )


def render_string(value: str) -> str:
    """A string as a value: bare when that is safe, JSON-quoted otherwise."""
    return value if can_be_bare(value) else dump_json(value)


def dump_json(value: Any) -> str:
    """One-line compact JSON with raw non-ASCII (the original tool's `JSON.stringify`)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def parse_lines(lines: Sequence[str], first_line: int, dialect: Dialect) -> list[Field]:
    """Parse dialect lines into fields (duplicates refused); `first_line` numbers lines[0]."""
    fields: list[Field] = []
    seen: set[str] = set()
    index = 0
    while index < len(lines):
        number = first_line + index
        match = KEY_LINE.fullmatch(lines[index])
        value = js_trim(match.group(2)) if match else ""
        if match is None or value == "":
            raise FormatError(dialect.invalid_line, "expected `key: value`", line=number)
        key = match.group(1)
        if key in seen:
            raise FormatError("GM_FORMAT_DUPLICATE_KEY", f"duplicate key {key!r}", line=number)
        seen.add(key)
        consumed, parsed = _value(value, lines, index, number)
        fields.append(Field(key, parsed, number))
        index += consumed
    return fields


def _value(value: str, lines: Sequence[str], index: int, number: int) -> tuple[int, Any]:
    if not needs_json(value):
        if "#" in value:
            raise FormatError(
                "GM_FORMAT_COMMENT_NOT_ALLOWED",
                "a bare value may not contain '#' (quote it as JSON)",
                line=number,
                column=value.index("#") + 1,
            )
        return 1, value
    if value[0] not in "[{":
        return 1, parse_json(value, number)
    scanner = _BracketScanner()
    scanner.feed(value)
    consumed = 1
    parts = [value]
    while not scanner.balanced:
        if index + consumed >= len(lines):
            raise FormatError("GM_FORMAT_UNTERMINATED_JSON", "JSON value never closes", line=number)
        parts.append(lines[index + consumed])
        scanner.feed("\n" + lines[index + consumed])
        consumed += 1
    if scanner.max_depth > MAX_JSON_DEPTH:
        raise FormatError(
            "GM_FORMAT_JSON_TOO_DEEP", f"JSON nests deeper than {MAX_JSON_DEPTH}", line=number
        )
    return consumed, parse_json("\n".join(parts), number)


class _BracketScanner:
    """Tracks bracket depth outside JSON strings, across lines."""

    def __init__(self) -> None:
        self.depth = 0
        self.max_depth = 0
        self.in_string = False
        self.escape = False

    @property
    def balanced(self) -> bool:
        return self.depth <= 0 and not self.in_string

    def feed(self, text: str) -> None:
        for char in text:
            if self.in_string:
                if self.escape:
                    self.escape = False
                elif char == "\\":
                    self.escape = True
                elif char == '"':
                    self.in_string = False
            elif char == '"':
                self.in_string = True
            elif char in "[{":
                self.depth += 1
                self.max_depth = max(self.max_depth, self.depth)
            elif char in "]}":
                self.depth -= 1


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def parse_json(text: str, line: int) -> Any:
    """Strict JSON (no NaN/Infinity, no lone surrogates) or `GM_FORMAT_INVALID_JSON_VALUE`."""
    try:
        value = _DECODER.decode(text)
    except (ValueError, RecursionError) as exc:
        raise FormatError(
            "GM_FORMAT_INVALID_JSON_VALUE", f"value is not valid JSON: {text[:60]}", line=line
        ) from exc
    if _has_lone_surrogate(value):
        raise FormatError(
            "GM_FORMAT_INVALID_JSON_VALUE", "JSON string holds a lone surrogate", line=line
        )
    return value


LONE_SURROGATE = "[\ud800-\udfff]"


def _has_lone_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return not value.isascii() and compiled(LONE_SURROGATE).search(value) is not None
    if isinstance(value, list):
        return any(_has_lone_surrogate(item) for item in value)
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    return False
