"""Entry files `entries/<id>.md`: parse and canonically serialize (docs/formats.md).

`parse_entry(serialize_entry(e)) == e`, and a canonical text round-trips byte for byte, so
`serialize_entry(parse_entry(text)) == text` exactly when `text` is canonical (`fmt --check`).
Pure: no I/O and no pydantic, because the pre-commit hook parses every staged entry.
"""

from __future__ import annotations

import re

from git_memory.errors import FormatError
from git_memory.formats.frontmatter import (
    ENTRY_DIALECT,
    Field,
    dump_json,
    parse_lines,
    render_string,
)
from git_memory.patterns import compiled
from git_memory.records import Record

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any

ENTRY_FIELDS: tuple[str, ...] = (
    "id",
    "type",
    "status",
    "priority",
    "confidence",
    "provenance_strength",
    "claim_support",
    "limitations",
    "scope",
    "scene",
    "occurred",
    "evidence",
    "superseded_by",
)
ENTRY_TYPES = ("work_fact", "work_task", "work_method", "work_artifact")
STATUSES = ("approved", "deprecated")
CONFIDENCES = ("high", "medium", "low")
PROVENANCE_STRENGTHS = ("direct", "observed", "candidate", "contextual", "unknown")
CLAIM_SUPPORTS = ("typed-fact", "human-confirmed", "mixed")
SCOPES = ("repo",)
# `path:<dir>`: the entry applies below one worktree directory; `path:.` the whole worktree,
# whatever its evidence (docs/formats.md, "scope").
_SEGMENT = r"[A-Za-z0-9_@+-][A-Za-z0-9._@+-]*"
PATH_SCOPE = rf"path:(\.|{_SEGMENT}(?:/{_SEGMENT})*)"

ENTRY_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
MAX_ID_LENGTH = 128
COMMIT_HASH = r"[0-9a-f]{40}"
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

OPEN = "---\n"
CLOSE = "\n---\n"
MAX_FRONTMATTER_BYTES = 64 * 1024
MAX_LINE_BYTES = 8 * 1024
MAX_LINES = 512


# The records here are named tuples, not dataclasses: the pre-commit hook parses every staged
# entry, and `dataclasses` (with `inspect`) is a measured cost of its start-up
# (docs/performance.md). A changed copy is `entry._replace(status=...)`.
class Commit(Record):
    """Public commit evidence: `repo` is `host/org/repo`, `hash` 40 lowercase hex."""

    repo: str
    hash: str


class Evidence(Record):
    """Public evidence only: commits and repository-relative paths."""

    commits: tuple[Commit, ...] = ()
    paths: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The evidence object in canonical key order."""
        return {
            "commits": [{"repo": c.repo, "hash": c.hash} for c in self.commits],
            "paths": list(self.paths),
        }


class Entry(Record):
    """One L1 memory. Field order is the canonical frontmatter order; `body` is verbatim."""

    id: str
    type: str = "work_fact"
    status: str = "approved"
    priority: int = 50
    confidence: str = "medium"
    provenance_strength: str = "unknown"
    claim_support: str = "mixed"
    limitations: tuple[str, ...] = ()
    scope: str = "repo"
    scene: str | None = None
    occurred: tuple[str, ...] = ()
    evidence: Evidence = Evidence()
    superseded_by: str | None = None
    body: str = ""


# The lint reads each staged entry twice (its format, and the index.json it calls for), as do
# the approved projection and assemble: an entry is immutable all the way down, so one parse
# of a text serves every reader in the process (a bounded number of texts are kept). A text
# that fails is parsed again each time.
_PARSED: dict[str, Entry] = {}
_PARSED_KEPT = 256


def parse_entry(text: str) -> Entry:
    """Parse an entry file; raises `FormatError` (`GM_FORMAT_*`) with the line at fault."""
    parsed = _PARSED.get(text)
    if parsed is None:
        parsed = _parse_entry(text)
        if len(_PARSED) >= _PARSED_KEPT:
            _PARSED.clear()
        _PARSED[text] = parsed
    return parsed


def _parse_entry(text: str) -> Entry:
    frontmatter, body = split_frontmatter(text)
    lines = frontmatter.split("\n") if frontmatter else []
    check_limits(frontmatter, lines)
    fields = {f.key: f for f in parse_lines(lines, 2, ENTRY_DIALECT)}
    for item in fields.values():
        if item.key not in ENTRY_FIELDS:
            raise FormatError(
                "GM_FORMAT_UNKNOWN_FIELD", f"unknown field {item.key!r}", line=item.line
            )
    for name in ENTRY_FIELDS:
        if name not in fields:
            raise FormatError("GM_FORMAT_MISSING_FIELD", f"missing field {name!r}", line=1)
    values = {name: _validate(fields[name]) for name in ENTRY_FIELDS}
    return Entry(body=body, **values)


def split_frontmatter(text: str) -> tuple[str, str]:
    """(frontmatter, body) of a `---` framed file; checks BOM and CR."""
    if text.startswith("\ufeff"):
        raise FormatError("GM_FORMAT_BOM_NOT_ALLOWED", "file starts with a BOM", line=1)
    if "\r" in text:
        line = text.count("\n", 0, text.index("\r")) + 1
        raise FormatError("GM_FORMAT_CRLF_NOT_ALLOWED", "carriage return in file", line=line)
    if not text.startswith(OPEN):
        raise FormatError(
            "GM_FORMAT_MISSING_FRONTMATTER", "file must start with '---' on its own line", line=1
        )
    end = text.find(CLOSE, 3)
    if end < 0:
        raise FormatError(
            "GM_FORMAT_UNTERMINATED_FRONTMATTER", "frontmatter has no closing '---' line", line=1
        )
    frontmatter = text[4:end] if end >= 4 else ""
    return frontmatter, text[end + len(CLOSE) :]


def check_limits(frontmatter: str, lines: list[str]) -> None:
    """Size limits of the frontmatter (line count first, as the original tool does)."""
    if len(lines) > MAX_LINES:
        raise FormatError(
            "GM_FORMAT_TOO_MANY_LINES", f"frontmatter has more than {MAX_LINES} lines", line=1
        )
    if len(frontmatter.encode("utf-8", "surrogatepass")) > MAX_FRONTMATTER_BYTES:
        raise FormatError("GM_FORMAT_FRONTMATTER_TOO_LARGE", "frontmatter exceeds 64 KiB", line=1)
    for number, line in enumerate(lines, start=2):
        if len(line.encode("utf-8", "surrogatepass")) > MAX_LINE_BYTES:
            raise FormatError("GM_FORMAT_LINE_TOO_LONG", "line exceeds 8 KiB", line=number)


def _invalid(item: Field, why: str) -> FormatError:
    return FormatError("GM_FORMAT_INVALID_FIELD", f"{item.key}: {why}", line=item.line)


def is_scope(value: object) -> bool:
    """Whether `value` is a valid `scope`: `repo` or `path:<dir>` (`path:.`: everywhere)."""
    return isinstance(value, str) and (
        value in SCOPES or compiled(PATH_SCOPE).fullmatch(value) is not None
    )


def scope_directory(scope: str) -> str | None:
    """The directory a `scope: path:<dir>` names (worktree-relative); None for `repo` and
    `path:.`, which name the whole worktree."""
    directory = scope.removeprefix("path:") if scope.startswith("path:") else "."
    return None if directory == "." else directory


def _scope(item: Field) -> str:
    value = item.value
    if is_scope(value):
        return str(value)
    raise _invalid(item, "must be repo or path:<dir> (a worktree-relative directory)")


def _choice(item: Field, allowed: tuple[str, ...]) -> str:
    if not isinstance(item.value, str) or item.value not in allowed:
        raise _invalid(item, "must be one of " + ", ".join(allowed))
    return item.value


def is_slug(value: Any) -> bool:
    """Whether `value` is a valid entry id (lowercase slug, ≤ 128 chars)."""
    return (
        isinstance(value, str)
        and len(value) <= MAX_ID_LENGTH
        and ENTRY_ID.fullmatch(value) is not None
    )


def _validate(item: Field) -> Any:
    key, value = item.key, item.value
    if key in ("id", "superseded_by"):
        if key == "superseded_by" and value is None:
            return None
        if not is_slug(value):
            raise _invalid(item, "must be a lowercase slug of at most 128 characters")
        return value
    if key == "claim_support" and value == "unverified":
        raise FormatError(
            "GM_FORMAT_UNVERIFIED_CLAIM_SUPPORT",
            "claim_support 'unverified' cannot be committed: a human must confirm it",
            line=item.line,
        )
    choices = {
        "type": ENTRY_TYPES,
        "status": STATUSES,
        "confidence": CONFIDENCES,
        "provenance_strength": PROVENANCE_STRENGTHS,
        "claim_support": CLAIM_SUPPORTS,
    }
    if key == "scope":
        return _scope(item)
    if key in choices:
        return _choice(item, choices[key])
    return _VALIDATORS[key](item)


def _priority(item: Field) -> int:
    value = item.value
    # JSON has one number type: 9e1 and 90.0 are the integer 90, as for the original tool.
    integral = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if isinstance(value, bool) or not integral or not 0 <= value <= 100:
        raise _invalid(item, "must be an integer from 0 to 100")
    return int(value)


def _string_list(item: Field) -> tuple[str, ...]:
    value = item.value
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise _invalid(item, "must be a JSON array of non-empty strings")
    return tuple(value)


def _scene(item: Field) -> str | None:
    if item.value is None:
        return None
    if not isinstance(item.value, str) or item.value == "":
        raise _invalid(item, "must be a non-empty string or null")
    return item.value


def _occurred(item: Field) -> tuple[str, ...]:
    dates = _string_list(item)
    for value in dates:
        if not is_calendar_date(value):
            raise _invalid(item, f"{value!r} is not a calendar date YYYY-MM-DD")
    return dates


def is_calendar_date(value: str) -> bool:
    """Whether `value` is `YYYY-MM-DD` naming a real day (2026-02-30 is not)."""
    # The rules of `datetime.date.fromisoformat`, without importing `datetime` on the hook's
    # path (docs/performance.md).
    if ISO_DATE.fullmatch(value) is None:
        return False
    year, month, day = int(value[:4]), int(value[5:7]), int(value[8:])
    if year < 1 or not 1 <= month <= 12:
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 1 <= day <= _MONTH_DAYS[month - 1] + (month == 2 and leap)


def _evidence(item: Field) -> Evidence:
    value = item.value
    if not isinstance(value, dict) or set(value) != {"commits", "paths"}:
        raise _invalid(item, 'must be exactly {"commits": [...], "paths": [...]}')
    commits, paths = value["commits"], value["paths"]
    if not isinstance(commits, list) or not isinstance(paths, list):
        raise _invalid(item, "commits and paths must be arrays")
    parsed: list[Commit] = []
    for commit in commits:
        if not (isinstance(commit, dict) and set(commit) == {"repo", "hash"}):
            raise _invalid(item, 'each commit must be exactly {"repo": ..., "hash": ...}')
        repo, hash_ = commit["repo"], commit["hash"]
        if not (isinstance(repo, str) and repo and isinstance(hash_, str)):
            raise _invalid(item, "commit repo must be a non-empty string")
        if compiled(COMMIT_HASH).fullmatch(hash_) is None:
            raise _invalid(item, "commit hash must be 40 lowercase hex digits")
        parsed.append(Commit(repo, hash_))
    if not all(isinstance(p, str) and p for p in paths):
        raise _invalid(item, "paths must be non-empty strings")
    return Evidence(tuple(parsed), tuple(paths))


_VALIDATORS = {
    "priority": _priority,
    "limitations": _string_list,
    "scene": _scene,
    "occurred": _occurred,
    "evidence": _evidence,
}


def serialize_entry(entry: Entry) -> str:
    """The canonical text of an entry (raises `GM_FORMAT_CRLF_NOT_ALLOWED` for a CR body)."""
    if "\r" in entry.body:
        raise FormatError("GM_FORMAT_CRLF_NOT_ALLOWED", "entry body contains a carriage return")
    lines = [f"{name}: {_render(name, getattr(entry, name))}" for name in ENTRY_FIELDS]
    return OPEN + "\n".join(lines) + CLOSE + entry.body


def _render(name: str, value: Any) -> str:
    if name == "evidence":
        return dump_json(value.to_json())
    if name in ("limitations", "occurred"):
        return dump_json(list(value))
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    return render_string(value)


def entry_frontmatter_span(text: str) -> tuple[int, int]:
    """(start, end) character offsets of the frontmatter lines in `text` (for lint spans)."""
    end = text.find(CLOSE, 3)
    return (4, end + 1) if text.startswith(OPEN) and end >= 3 else (0, 0)
