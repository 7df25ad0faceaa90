"""The lint engine: secret/privacy rules plus format validity, over one file's text. Pure.

`lint_text(relpath, text)` is the single entry point used by `git memory lint`, the
pre-commit hook and the promotion gate. `relpath` is relative to the memory root
(`entries/<id>.md`, `scenes/<name>.md`, `doctrine.md`, `skills/<name>/SKILL.md`, …) and
decides which format the text must follow.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence

from git_memory.formats.controls import HIDDEN, has_invisible, invisible_pattern
from git_memory.lint.assigned import Hit, assigned_secrets, http_credentials
from git_memory.lint.entropy import is_high_entropy, looks_fake
from git_memory.lint.files import check_format
from git_memory.lint.findings import Finding, Span, format_finding
from git_memory.lint.markdown import plain
from git_memory.lint.normalize import encoded_text, normalized
from git_memory.lint.rules import (
    ANY_UUID,
    BLOCK,
    CONTROL_CODE,
    ENTROPY_CODE,
    ENTROPY_THRESHOLD,
    ENTROPY_TOKEN,
    HEX_RUN,
    HEX_RUN_CODE,
    HEX_RUN_MIN,
    HEX_TOKEN_CODE,
    HEX_TOKEN_LENGTHS,
    INVISIBLE_CODE,
    LINT_CODES,
    PATTERN_RULES,
    SESSION_CONTEXT,
    SESSION_CONTEXT_RADIUS,
    SESSION_ID_CODE,
    SESSION_UUID,
    SESSION_UUID_PREFILTER,
    WARN,
    PatternRule,
)
from git_memory.patterns import compiled
from git_memory.records import Record

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from git_memory.lint.rules import Severity

EXCERPT_PREFIX = 6


def excerpt(token: str) -> str:
    """A few leading characters and the length; never the whole token (≤ 24 chars).

    A control character among them is replaced by `?`, so an excerpt cannot drive a terminal.
    """
    shown = HIDDEN.sub("?", token[: min(EXCERPT_PREFIX, len(token) // 3)])
    return f"{shown}…[{len(token)} chars]"


class LineIndex:
    """Maps character offsets to 1-based (line, column)."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        position = text.find("\n")
        while position >= 0:
            self.starts.append(position + 1)
            position = text.find("\n", position + 1)

    def locate(self, offset: int) -> tuple[int, int]:
        """(line, column) of `offset`."""
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


class RawFinding(Record):
    """A finding before line/column resolution."""

    code: str
    severity: Severity
    offset: int
    excerpt: str
    message: str
    length: int = 0


# Base64 inside base64 is decoded once more; deeper nesting is not text anyone reads.
MAX_DECODING_DEPTH = 2


def scan_secrets(text: str, allowed: Sequence[Span] = (), depth: int = 0) -> list[RawFinding]:
    """Every secret/privacy rule over `text`; `allowed` exempts entropy and hex runs.

    Nothing that is not seen hides a secret. The context rules read the Markdown-plain text
    (same offsets); the pattern and token rules read the text as written, which for them is
    the same: the formatting characters (`*`, `~`, backticks, `#`, `>`) are outside every
    token class. Then every rule reads the text again as rendered and decoded
    (`lint.normalize`: invisible characters, HTML comments and tags, intraword Markdown
    deleted; entities, escapes and percent-encoding decoded), keeping what reads across
    something undone, at its offset in the file. Base64 or hex of readable text is decoded
    and linted too, each finding at the encoded token.
    """
    found = _secret_findings(text, allowed, depth)
    view = normalized(text)
    if view is not None:
        seen = {(item.code, item.offset) for item in found}
        for item in _secret_findings(view.text, (), depth):
            if view.touches(item.offset, item.offset + item.length):
                offset = view.origin[item.offset]
                if (item.code, offset) not in seen:
                    seen.add((item.code, offset))
                    found.append(item._replace(offset=offset))
    if HIDDEN.search(text):
        found.extend(_hidden_characters(text))
    if has_invisible(text):
        found.extend(_invisible_characters(text))
    return found


def _secret_findings(text: str, allowed: Sequence[Span], depth: int) -> list[RawFinding]:
    found: list[RawFinding] = []
    for rule in PATTERN_RULES:
        if _triggered(rule, text):
            found.extend(_pattern_findings(rule, text))
    if SESSION_UUID_PREFILTER.search(text):
        found.extend(_session_ids(text))
    public = [Span(start, end) for start, end in _public_armor_spans(text)]
    found.extend(_token_findings(text, [*allowed, *public], depth))
    readable = plain(text)
    found.extend(_hit_findings(text, [*assigned_secrets(readable), *http_credentials(readable)]))
    return found


def _encoded_findings(token: str, start: int, depth: int) -> Iterable[RawFinding]:
    """What blocks inside `token` when it is base64 or hex of readable text, at the token."""
    decoded = encoded_text(token)
    if decoded is None:
        return
    for item in scan_secrets(decoded, (), depth + 1):
        # A control byte in decoded text hides nothing on screen: only secrets count.
        if item.severity == BLOCK and item.code not in (CONTROL_CODE, INVISIBLE_CODE):
            message = f"{item.message} (encoded)"
            yield RawFinding(item.code, BLOCK, start, excerpt(token), message, len(token))


def _hit_findings(text: str, hits: Iterable[Hit]) -> Iterable[RawFinding]:
    for hit in hits:
        token = text[hit.start : hit.end]
        message = LINT_CODES[hit.code][1]
        yield RawFinding(hit.code, BLOCK, hit.start, excerpt(token), message, len(token))


def _hidden_characters(text: str) -> Iterable[RawFinding]:
    message = LINT_CODES[CONTROL_CODE][1]
    for match in HIDDEN.finditer(text):
        shown = f"U+{ord(match.group()):04X}"
        yield RawFinding(CONTROL_CODE, BLOCK, match.start(), shown, message, 1)


ZWJ = "\u200d"
# Emoji (and the modifiers and selector that may follow one): a zero-width joiner between two
# draws one emoji (👨‍👩‍👧) and hides nothing.
_EMOJI = r"[\u2600-\u27bf\U0001f000-\U0001faff][\ufe0f\U0001f3fb-\U0001f3ff]?"


def _emoji_joint(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 2) : start]
    return (
        bool(compiled(_EMOJI).fullmatch(before[-1:]) or compiled(_EMOJI).fullmatch(before))
        and compiled(_EMOJI).match(text, end) is not None
    )


def _invisible_characters(text: str) -> Iterable[RawFinding]:
    """One finding per run of invisible characters, named by the first (`U+200B…[3 chars]`)."""
    message = LINT_CODES[INVISIBLE_CODE][1]
    for match in invisible_pattern().finditer(text):
        run = match.group()
        if run == ZWJ and _emoji_joint(text, match.start(), match.end()):
            continue
        shown = f"U+{ord(run[0]):04X}" + (f"…[{len(run)} chars]" if len(run) > 1 else "")
        yield RawFinding(INVISIBLE_CODE, BLOCK, match.start(), shown, message, len(run))


def _triggered(rule: PatternRule, text: str) -> bool:
    if not any(trigger in text for trigger in rule.triggers):
        return False
    return rule.prefilter is None or rule.prefilter.search(text) is not None


def _public_armor_spans(text: str) -> list[tuple[int, int]]:
    if "BEGIN " not in text:
        return []
    # Start-up seam (docs/architecture.md): the precision filters (and `lint.armor`) load only
    # for text with an armor block or a rule's match.
    from git_memory.lint.precision import public_armor_spans  # noqa: PLC0415

    return public_armor_spans(text)


def _pattern_findings(rule: PatternRule, text: str) -> Iterable[RawFinding]:
    matches = list(rule.pattern.finditer(text))
    if not matches:
        return
    # Start-up seam (docs/architecture.md), as in `_public_armor_spans`.
    from git_memory.lint.precision import adjust  # noqa: PLC0415

    for match in matches:
        severity = adjust(rule, text, match)
        if severity is not None:
            token = match.group()
            yield RawFinding(
                rule.code, severity, match.start(), excerpt(token), rule.message, len(token)
            )


def _session_ids(text: str) -> Iterable[RawFinding]:
    for match in SESSION_UUID.finditer(text):
        start, end = match.span()
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        window = text[
            max(line_start, start - SESSION_CONTEXT_RADIUS) : min(
                len(text) if line_end < 0 else line_end, end + SESSION_CONTEXT_RADIUS
            )
        ]
        if SESSION_CONTEXT.search(window):
            yield RawFinding(
                SESSION_ID_CODE,
                BLOCK,
                start,
                excerpt(match.group()),
                "agent session id",
                end - start,
            )


# Lowercases ASCII only, so offsets in the lowered text are offsets in the file (str.lower
# can lengthen some non-ASCII characters).
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
INDEXED_SESSION_ID_MESSAGE = "this machine's session id (from the session index)"


def ascii_lower(text: str) -> str:
    """`text` with A-Z lowercased and every other character kept at its offset."""
    return text.translate(_ASCII_LOWER)


def present_ids(text: str, ids: frozenset[str]) -> list[str]:
    """The lowercased `ids` that occur in `text` (any case), sorted."""
    found = {ascii_lower(match.group()) for match in ANY_UUID.finditer(text)} & ids
    others = [i for i in ids if not ANY_UUID.fullmatch(i)]
    if others:
        lowered = ascii_lower(text)
        found.update(i for i in others if i in lowered)
    return sorted(found)


def indexed_id_findings(text: str, ids: Iterable[str]) -> list[Finding]:
    """Every occurrence in `text` of one of this machine's indexed session ids (lowercased),
    whatever the words around it."""
    lowered = ascii_lower(text)
    raw: list[RawFinding] = []
    for session_id in ids:
        start = lowered.find(session_id)
        while start >= 0:
            token = text[start : start + len(session_id)]
            raw.append(
                RawFinding(
                    SESSION_ID_CODE,
                    BLOCK,
                    start,
                    excerpt(token),
                    INDEXED_SESSION_ID_MESSAGE,
                    len(token),
                )
            )
            start = lowered.find(session_id, start + 1)
    return resolve(text, raw)


HOME_MESSAGE = "this machine's home directory"
_PATH_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def home_findings(text: str, home: str) -> list[Finding]:
    """Every mention of `home` (this machine's real `$HOME`, wherever it is) as an absolute
    home path: the pattern rule knows `/home/…`, `/Users/…` and `/root`, not `/srv/alice`."""
    home = home.rstrip("/\\")
    if len(home) < 2 or home not in text:
        return []
    code = "GM_LINT_ABSOLUTE_PATH"
    raw: list[RawFinding] = []
    start = text.find(home)
    while start >= 0:
        end = start + len(home)
        if _name_ends(text, end):
            token = text[start:end]
            raw.append(RawFinding(code, WARN, start, excerpt(token), HOME_MESSAGE, len(token)))
        start = text.find(home, start + 1)
    return resolve(text, raw)


def _name_ends(text: str, end: int) -> bool:
    """Whether a path name ends at `end` (`/srv/alice` in `/srv/alice/x` or `/srv/alice.`,
    not in `/srv/alicex` or `/srv/alice.bak`)."""
    following = text[end : end + 2]
    if following[:1] == ".":
        following = following[1:]
    return not following or following[0] not in _PATH_NAME_CHARS


def _token_findings(text: str, allowed: Sequence[Span], depth: int) -> Iterable[RawFinding]:
    entropy_message = LINT_CODES[ENTROPY_CODE][1]
    for match in ENTROPY_TOKEN.finditer(text):
        start, end = match.span()
        token = match.group()
        if depth < MAX_DECODING_DEPTH:
            yield from _encoded_findings(token, start, depth)
        if any(span.covers(start, end) for span in allowed):
            continue
        if is_high_entropy(token, ENTROPY_THRESHOLD):
            yield RawFinding(
                ENTROPY_CODE, BLOCK, start, excerpt(token), entropy_message, len(token)
            )
        if len(token) < HEX_RUN_MIN:
            continue
        for hex_match in HEX_RUN.finditer(token):
            hex_start, hex_end = start + hex_match.start(), start + hex_match.end()
            if any(span.covers(hex_start, hex_end) for span in allowed):
                continue
            run = hex_match.group()
            if len(run) in HEX_TOKEN_LENGTHS and not looks_fake(run):
                code, severity = HEX_TOKEN_CODE, BLOCK
            else:
                code, severity = HEX_RUN_CODE, WARN
            yield RawFinding(code, severity, hex_start, excerpt(run), LINT_CODES[code][1], len(run))


def resolve(text: str, raw: Iterable[RawFinding]) -> list[Finding]:
    """Attach line/column and sort by position, then code."""
    raw = list(raw)
    if not raw:
        return []
    lines = LineIndex(text)
    findings = []
    for item in raw:
        line, column = lines.locate(item.offset)
        findings.append(
            Finding(item.code, item.severity, line, column, item.excerpt, item.message, item.offset)
        )
    return sorted(findings, key=lambda f: (f.offset, f.code))


def lint_text(relpath: str, text: str) -> list[Finding]:
    """Lint one memory file: its format (by `relpath` kind) and every secret rule."""
    errors, allowed = check_format(relpath, text)
    return sorted(
        [*errors, *resolve(text, scan_secrets(text, allowed))],
        key=lambda f: (f.line, f.column, f.code),
    )


def lint_bytes(relpath: str, data: bytes) -> list[Finding]:
    """`lint_text` for raw file bytes: invalid UTF-8 is a blocking format finding."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return [format_finding("GM_FORMAT_INVALID_UTF8", "file is not valid UTF-8", line, 1)]
    return lint_text(relpath, text)


def passes_lint(text: str) -> bool:
    """Whether no secret rule blocks `text` (what `index.json` may copy from a file)."""
    return not any(item.severity == BLOCK for item in scan_secrets(text))


def blocked(findings: Iterable[Finding]) -> bool:
    """Whether any finding blocks."""
    return any(f.blocks for f in findings)
