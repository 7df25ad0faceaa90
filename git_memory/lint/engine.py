"""The lint engine: secret/privacy rules plus format validity, over one file's text. Pure.

`lint_text(relpath, text)` is the single entry point used by `git memory lint`, the
pre-commit hook and the promotion gate. `relpath` is relative to the memory root
(`entries/<id>.md`, `scenes/<name>.md`, `doctrine.md`, `skills/<name>/SKILL.md`, …) and
decides which format the text must follow.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from git_memory.lint.decodings import rot13
from git_memory.lint.directives import directive_findings
from git_memory.lint.entropy import is_high_entropy
from git_memory.lint.files import check_format
from git_memory.lint.findings import Finding, Span, format_finding
from git_memory.lint.fragments import Run
from git_memory.lint.hashes import hash_spans, hex40_tokens
from git_memory.lint.normalize import encoded_text
from git_memory.lint.raw import RawFinding, excerpt, resolve
from git_memory.lint.rules import (
    BLOCK,
    CONTROL_CODE,
    ENTROPY_CODE,
    ENTROPY_THRESHOLD,
    ENTROPY_TOKEN,
    INVISIBLE_CODE,
    LINT_CODES,
    PATTERN_RULES,
)
from git_memory.lint.secret_rules import (
    character_findings,
    pattern_findings,
    public_spans,
    secret_findings,
)
from git_memory.lint.views import TextViews

DIRECTIVE_PREFIX = "GM_DIRECTIVE_"
# Base64 inside base64 is decoded once more; deeper nesting is not text anyone reads.
MAX_DECODING_DEPTH = 2
# The provider prefixes a rotated or reversed key still carries (the rules that block and
# name a provider's key, not a path or an address).
_PREFIX_RULES = tuple(
    rule
    for rule in PATTERN_RULES
    if rule.severity == BLOCK
    and rule.code not in ("GM_LINT_ABSOLUTE_PATH", "GM_LINT_PROVIDER_SESSION_ID")
)


_TRIGGERS = tuple(trigger for rule in _PREFIX_RULES for trigger in rule.triggers)
# The longest trigger: how much of a token's start is rotated to compare with them.
_PREFIX_SPAN = max(len(trigger) for trigger in _TRIGGERS)


class _Found:
    """Findings without repeats: one per code and file offset."""

    def __init__(self) -> None:
        self.items: list[RawFinding] = []
        self.seen: set[tuple[str, int]] = set()

    def add(self, items: Iterable[RawFinding]) -> None:
        for item in items:
            if (item.code, item.offset) not in self.seen:
                self.seen.add((item.code, item.offset))
                self.items.append(item)


def scan_secrets(
    text: str, allowed: Sequence[Span] = (), depth: int = 0, views: TextViews | None = None
) -> list[RawFinding]:
    """Every secret/privacy rule over every view of `text`; `allowed` exempts entropy and
    hex runs.

    Nothing that is not seen hides a secret. The rules read the text as written (the context
    rules its Markdown-plain form, same offsets), then as rendered, decoded and folded
    (`lint.views`), keeping what reads across something undone at its offset in the file;
    then the runs of fragments that join into one token, the stretches in an encoding, and
    the text rotated or reversed for the provider prefixes. Base64 or hex of readable text
    is decoded and linted too, each finding at the encoded token. `views` are the text's
    views when the caller shares them with another rule family.
    """
    views = views if views is not None else TextViews(text)
    exempt = [*allowed, *public_spans(text)]
    found = _Found()
    found.add(secret_findings(text, exempt, _decoder(depth)))
    view = views.rendered
    if view is not None:
        for item in secret_findings(view.text, (), _decoder(depth)):
            if view.touches(item.offset, item.offset + item.length):
                found.add([item._replace(offset=view.origin[item.offset])])
    found.add(_run_findings(views, exempt, depth))
    if depth < MAX_DECODING_DEPTH:
        found.add(_segment_findings(views, depth))
    found.add(_turned_findings(views))
    found.add(character_findings(text))
    return found.items


def _decoder(depth: int) -> Callable[[str, int], Iterable[RawFinding]]:
    def decode(token: str, start: int) -> Iterable[RawFinding]:
        if depth >= MAX_DECODING_DEPTH:
            return ()
        return _encoded_findings(token, start, depth)

    return decode


def _inner_secrets(decoded: str, depth: int) -> Iterator[RawFinding]:
    """What blocks in decoded text. A control byte there hides nothing on screen: only
    secrets count."""
    for item in scan_secrets(decoded, (), depth + 1):
        if item.severity == BLOCK and item.code not in (CONTROL_CODE, INVISIBLE_CODE):
            yield item


def _encoded_findings(token: str, start: int, depth: int) -> Iterable[RawFinding]:
    """What blocks inside `token` when it is base64 or hex of readable text, at the token."""
    decoded = encoded_text(token)
    if decoded is None:
        return
    for item in _inner_secrets(decoded, depth):
        message = f"{item.message} (encoded)"
        yield RawFinding(item.code, BLOCK, start, excerpt(token), message, len(token))


def _overlaps(spans: Iterable[Span], start: int, end: int) -> bool:
    return any(span.start < end and start < span.end for span in spans)


def _run_findings(views: TextViews, exempt: list[Span], depth: int) -> Iterator[RawFinding]:
    """A run of fragments that joins into a key is the key, reported at its first fragment."""
    hashes: list[Span] | None = None
    for run in views.runs:
        found = list(_joined_findings(run, depth))
        if not found or _overlaps(exempt, run.start, run.end):
            continue
        if hashes is None:
            hashes = hash_spans(views.text)
        if not _overlaps(hashes, run.start, run.end):
            yield from found


def _joined_findings(run: Run, depth: int) -> Iterator[RawFinding]:
    length, shown = run.end - run.start, excerpt(run.joined)
    for item in pattern_findings(run.joined, _PREFIX_RULES):
        message = f"{item.message} (joined)"
        yield RawFinding(item.code, BLOCK, run.start, shown, message, length)
    if is_high_entropy(run.joined, ENTROPY_THRESHOLD):
        message = f"{LINT_CODES[ENTROPY_CODE][1]} (joined)"
        yield RawFinding(ENTROPY_CODE, BLOCK, run.start, shown, message, length)
    if depth < MAX_DECODING_DEPTH:
        for item in _encoded_findings(run.joined, run.start, depth):
            yield item._replace(length=length)


def _segment_findings(views: TextViews, depth: int) -> Iterator[RawFinding]:
    """Quoted-printable, Ascii85 and decimal codes: what blocks once decoded, at the segment."""
    for segment in views.segments:
        written = views.text[segment.start : segment.end]
        for item in _inner_secrets(segment.decoded, depth):
            message = f"{item.message} (encoded)"
            yield RawFinding(
                item.code, BLOCK, segment.start, excerpt(written), message, len(written)
            )


def _turned_findings(views: TextViews) -> Iterator[RawFinding]:
    """A provider key written in rot13 or backwards, at its place in the file. Only a token
    long enough to be a key whose rotated or reversed start is a provider's prefix is read
    again, by that provider's rules."""
    text = views.text
    for match in ENTROPY_TOKEN.finditer(text):
        token, start = match.group(), match.start()
        if rot13(token[:_PREFIX_SPAN]).startswith(_TRIGGERS):
            for item in pattern_findings(rot13(token), _PREFIX_RULES):
                yield item._replace(offset=start + item.offset, message=f"{item.message} (rot13)")
        backwards = token[::-1]
        if backwards.startswith(_TRIGGERS):
            for item in pattern_findings(backwards, _PREFIX_RULES):
                offset = start + len(token) - item.offset - item.length
                yield item._replace(offset=offset, message=f"{item.message} (reversed)")


KnownCommit = Callable[[str], bool]


def lint_text(relpath: str, text: str, known_commit: KnownCommit | None = None) -> list[Finding]:
    """Lint one memory file: its format (by `relpath` kind), every secret rule and, in a
    Markdown file, every directive rule (warnings), over one shared set of views of the text.

    `known_commit` says whether a 40-hex id is a commit of this repository (a commit id is
    public); without it only the words around a hash say it is one (`lint.hashes`).
    """
    errors, allowed = check_format(relpath, text)
    if known_commit is not None:
        allowed = [
            *allowed,
            *(s for s in hex40_tokens(text) if known_commit(text[s.start : s.end])),
        ]
    views = TextViews(text)
    raw = scan_secrets(text, allowed, views=views)
    if relpath.endswith(".md"):
        # What agents read: entries, scenes, doctrine, skills; index.json repeats entry text.
        raw += directive_findings(views)
    return sorted([*errors, *resolve(text, raw)], key=lambda f: (f.line, f.column, f.code))


def lint_bytes(relpath: str, data: bytes, known_commit: KnownCommit | None = None) -> list[Finding]:
    """`lint_text` for raw file bytes: invalid UTF-8 is a blocking format finding."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return [format_finding("GM_FORMAT_INVALID_UTF8", "file is not valid UTF-8", line, 1)]
    return lint_text(relpath, text, known_commit)


def is_directive(finding: Finding) -> bool:
    """Whether `finding` is a directive (`GM_DIRECTIVE_*`), not a secret or format finding."""
    return finding.code.startswith(DIRECTIVE_PREFIX)


def passes_lint(text: str) -> bool:
    """Whether no secret rule blocks `text` (what `index.json` may copy from a file)."""
    return not any(item.severity == BLOCK for item in scan_secrets(text))


def blocked(findings: Iterable[Finding]) -> bool:
    """Whether any finding blocks."""
    return any(f.blocks for f in findings)
