"""The secret and privacy rule family over one text: the rules of `lint.rules` applied. Pure.

`secret_findings(text, allowed, depth, decode)` runs the pattern rules, the session-id rule,
the entropy and hex-token rules (a hash where hashes are written is not one: `lint.hashes`),
the assigned-secret, HTTP-credential and stated-password rules. `character_findings` reports
control and invisible characters, except the joiners that scripts need for their spelling.
The engine runs them over every view of a text (`lint.views`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from git_memory.formats.controls import HIDDEN, has_invisible, invisible_pattern
from git_memory.lint.assigned import Hit, assigned_secrets, http_credentials
from git_memory.lint.entropy import is_high_entropy, looks_fake, value_core
from git_memory.lint.findings import Span
from git_memory.lint.hashes import hash_spans
from git_memory.lint.markdown import plain
from git_memory.lint.prose import stated_passwords
from git_memory.lint.raw import RawFinding, excerpt
from git_memory.lint.rules import (
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

# What the engine does with a token that may encode text: (token, its start) → findings.
Decode = Callable[[str, int], Iterable[RawFinding]]


def secret_findings(text: str, allowed: Sequence[Span], decode: Decode) -> list[RawFinding]:
    """Every secret rule over `text`; `allowed` exempts the entropy and hex-token rules (the
    caller adds `public_spans`)."""
    found = list(pattern_findings(text))
    if SESSION_UUID_PREFILTER.search(text):
        found.extend(_session_ids(text))
    found.extend(_token_findings(text, allowed, decode))
    readable = plain(text)
    hits = [*assigned_secrets(readable), *http_credentials(readable), *stated_passwords(readable)]
    found.extend(_hit_findings(text, hits))
    return found


def pattern_findings(
    text: str, rules: Iterable[PatternRule] = PATTERN_RULES
) -> Iterator[RawFinding]:
    """The findings of each pattern rule whose trigger `text` holds."""
    for rule in rules:
        if _triggered(rule, text):
            yield from _pattern_findings(rule, text)


def _hit_findings(text: str, hits: Iterable[Hit]) -> Iterable[RawFinding]:
    for hit in hits:
        token = text[hit.start : hit.end]
        message = LINT_CODES[hit.code][1]
        yield RawFinding(hit.code, BLOCK, hit.start, excerpt(token), message, len(token))


def _triggered(rule: PatternRule, text: str) -> bool:
    if not any(trigger in text for trigger in rule.triggers):
        return False
    return rule.prefilter is None or rule.prefilter.search(text) is not None


def public_spans(text: str) -> list[Span]:
    """The bodies of complete public key and certificate blocks (`lint.precision`)."""
    if "BEGIN " not in text:
        return []
    # Start-up seam (docs/architecture.md): the precision filters (and `lint.armor`) load only
    # for text with an armor block or a rule's match.
    from git_memory.lint.precision import public_armor_spans  # noqa: PLC0415

    return [Span(start, end) for start, end in public_armor_spans(text)]


def _pattern_findings(rule: PatternRule, text: str) -> Iterable[RawFinding]:
    matches = list(rule.pattern.finditer(text))
    if not matches:
        return
    # Start-up seam (docs/architecture.md), as in `public_spans`.
    from git_memory.lint.precision import adjust  # noqa: PLC0415

    for match in matches:
        severity = adjust(rule, text, match)
        if severity is not None:
            token = match.group()
            yield RawFinding(
                rule.code, severity, match.start(), excerpt(token), rule.message, len(token)
            )


def _session_ids(text: str) -> Iterable[RawFinding]:
    for match in compiled(SESSION_UUID).finditer(text):
        start, end = match.span()
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        window = text[
            max(line_start, start - SESSION_CONTEXT_RADIUS) : min(
                len(text) if line_end < 0 else line_end, end + SESSION_CONTEXT_RADIUS
            )
        ]
        if compiled(SESSION_CONTEXT).search(window):
            token = match.group()
            yield RawFinding(
                SESSION_ID_CODE, BLOCK, start, excerpt(token), "agent session id", end - start
            )


class _Exempt:
    """The spans a token may stand in without blocking: `allowed`, and the hashes of the
    text, found only once a token would block."""

    def __init__(self, text: str, allowed: Sequence[Span]) -> None:
        self.text = text
        self.allowed = allowed
        self.hashes: list[Span] | None = None

    def covers(self, start: int, end: int) -> bool:
        return any(span.covers(start, end) for span in self.allowed)

    def is_hash(self, start: int, end: int) -> bool:
        if self.hashes is None:
            self.hashes = hash_spans(self.text)
        return any(span.covers(start, end) for span in self.hashes)


def _token_findings(text: str, allowed: Sequence[Span], decode: Decode) -> Iterable[RawFinding]:
    exempt = _Exempt(text, allowed)
    for match in ENTROPY_TOKEN.finditer(text):
        start, end = match.span()
        token = match.group()
        yield from decode(token, start)
        if exempt.covers(start, end):
            continue
        if (
            _high_entropy(text, token, start)
            and not exempt.is_hash(start, end)
            and not _named_id(text, start)
        ):
            message = LINT_CODES[ENTROPY_CODE][1]
            yield RawFinding(ENTROPY_CODE, BLOCK, start, excerpt(token), message, len(token))
        if len(token) >= HEX_RUN_MIN:
            yield from _hex_runs(token, start, exempt)


def _hex_runs(token: str, start: int, exempt: _Exempt) -> Iterable[RawFinding]:
    for hex_match in compiled(HEX_RUN).finditer(token):
        hex_start, hex_end = start + hex_match.start(), start + hex_match.end()
        if exempt.covers(hex_start, hex_end):
            continue
        run = hex_match.group()
        code, severity = HEX_RUN_CODE, WARN
        if _hex_token(run, token) and not exempt.is_hash(hex_start, hex_end):
            code, severity = HEX_TOKEN_CODE, BLOCK
        yield RawFinding(code, severity, hex_start, excerpt(run), LINT_CODES[code][1], len(run))


def _high_entropy(text: str, token: str, start: int) -> bool:
    """The entropy rule; in a URL (`https://host/d/8fa1b2c3/api-latency`) each path segment
    is judged alone, as the address it is, so a key in a path still blocks."""
    if "/" in token and _in_url(text, start):
        segments = token.split("/")
        return any(is_high_entropy(part, ENTROPY_THRESHOLD) for part in segments)
    return is_high_entropy(token, ENTROPY_THRESHOLD)


def _in_url(text: str, start: int) -> bool:
    """Whether the token at `start` continues a `scheme://` address (no space between)."""
    line_start = max(text.rfind(" ", 0, start), text.rfind("\n", 0, start), start - 256)
    return "://" in text[line_start + 1 : start + 3]


def _hex_token(run: str, token: str) -> bool:
    """Whether a 40- or 64-hex run is a bare hex token: the whole token or its value (after
    `name=` and word affixes), in one letter case. Hex encoders and git print one case; a run
    inside a longer token is judged with that token, and mixed case (an EIP-55 checksummed
    address) is no encoder's output: both only warn."""
    if len(run) not in HEX_TOKEN_LENGTHS or looks_fake(run):
        return False
    if run not in (token, value_core(token)):
        return False
    return run == run.lower() or run == run.upper()


# A value assigned to a name ending in "id" (`"credentialId": "B9mT…"`, `client_id=…`) is an
# identifier, which names a thing without opening it; a session id is not one of these.
_ID_NAME = (
    r"(?<![Ss]ession)(?<![Ss]ession_)(?:Id|ID|_id|Ids|IDs|_ids)[\"']?[ \t]*[:=][ \t]*[\"']?\Z"
)
_ID_WINDOW = 16


def _named_id(text: str, start: int) -> bool:
    return compiled(_ID_NAME).search(text, max(0, start - _ID_WINDOW), start) is not None


def character_findings(text: str) -> list[RawFinding]:
    """Control and invisible characters (one finding per invisible run)."""
    found: list[RawFinding] = []
    if HIDDEN.search(text):
        message = LINT_CODES[CONTROL_CODE][1]
        for match in HIDDEN.finditer(text):
            shown = f"U+{ord(match.group()):04X}"
            found.append(RawFinding(CONTROL_CODE, BLOCK, match.start(), shown, message, 1))
    if has_invisible(text):
        found.extend(_invisible_characters(text))
    return found


ZWJ, ZWNJ = "\u200d", "\u200c"
# Emoji (and the modifiers and selector that may follow one): a zero-width joiner between two
# draws one emoji (👨‍👩‍👧) and hides nothing.
_EMOJI = r"[\u2600-\u27bf\U0001f000-\U0001faff][\ufe0f\U0001f3fb-\U0001f3ff]?"
# Scripts whose spelling needs a zero-width (non-)joiner between two of their letters: Arabic
# (Persian `می‌خواهم`, Urdu, Kurdish), Syriac, the Indic scripts from Devanagari to Sinhala
# (`क्‍या`), Myanmar, Khmer and Mongolian.
_JOINING_SCRIPT = (
    "[\u0600-\u06ff\u0700-\u074f\u0750-\u077f\u08a0-\u08ff\u0900-\u0dff"
    "\u1000-\u109f\u1780-\u17ff\u1800-\u18af\ufb50-\ufdff\ufe70-\ufefe]"
)


def _emoji_joint(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 2) : start]
    return (
        bool(compiled(_EMOJI).fullmatch(before[-1:]) or compiled(_EMOJI).fullmatch(before))
        and compiled(_EMOJI).match(text, end) is not None
    )


def _spelling(text: str, start: int, end: int) -> bool:
    """Whether the joiner at [start, end) stands between two letters of a joining script."""
    script = compiled(_JOINING_SCRIPT)
    return (
        start > 0
        and script.match(text, start - 1) is not None
        and script.match(text, end) is not None
    )


def _invisible_characters(text: str) -> Iterable[RawFinding]:
    """One finding per run of invisible characters, named by the first (`U+200B…[3 chars]`)."""
    message = LINT_CODES[INVISIBLE_CODE][1]
    for match in invisible_pattern().finditer(text):
        run, start, end = match.group(), match.start(), match.end()
        if run == ZWJ and _emoji_joint(text, start, end):
            continue
        if run in (ZWJ, ZWNJ) and _spelling(text, start, end):
            continue
        shown = f"U+{ord(run[0]):04X}" + (f"…[{len(run)} chars]" if len(run) > 1 else "")
        yield RawFinding(INVISIBLE_CODE, BLOCK, start, shown, message, len(run))
