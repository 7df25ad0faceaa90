"""The text as a reader sees it once rendered or decoded: what hides a secret is undone. Pure.

A key split every few characters by a zero-width space, a soft hyphen, an empty HTML comment
`<!---->` or `<span></span>`, or written as HTML entities (`&#103;`), escapes (`\\u0067`,
`\\x67`) or percent-encoding (`%67`) reads as the key on screen or to a model, so the rules
read it that way too. `normalized(text)` decodes and strips all of these (a few rounds, so
`&amp;#103;` or an escaped zero-width space is undone as well) and keeps, for each character
of the result, the offset in the file it came from: a finding still points at the file's
line. Every pattern here runs in linear time (bounded or delimiter-stopped repetitions, an
HTML comment found with `str.find`).

`encoded_text(token)` is the other half: base64 or hex of readable text is decoded so the
text inside is linted too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from git_memory.formats.controls import has_invisible, invisible_pattern
from git_memory.lint.entropy import PRINTABLE_SHARE, base64_decodings, printable_share
from git_memory.lint.markdown import INTRAWORD, rendered_link_edits
from git_memory.patterns import compiled
from git_memory.records import Record

ROUNDS = 3
_ENTITY = r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?"
_CODE_POINT = r"\\(?:u\{([0-9a-fA-F]{1,6})\}|U([0-9a-fA-F]{8})|u([0-9a-fA-F]{4}))"
# `\x67`, `%67`, and octal `\147`: three digits each, or a run of at least four escapes of
# one to three digits (`\61\62\147…`, as `printf` and C strings take them; a lone `\1` is a
# back-reference in a sed command, not a byte).
_BYTE_RUN = (
    r"(?:\\x[0-9a-fA-F]{2})+|(?:%[0-9a-fA-F]{2})+|(?:\\[0-7]{1,3}(?![0-7])){4,}"
    r"|(?:\\[0-3][0-7]{2})+"
)
_OCTAL = r"\\([0-7]{1,3})"
# A start or end tag: `<span>`, `</span>`, `<b class="x">`, `<wbr/>`. `<https://…>` (an
# autolink) and `a < b > c` are not tags. `[^<>]*` stops at the next `<`, where the next try
# starts, so the scan stays linear.
_TAG = r"</?[A-Za-z][A-Za-z0-9-]*(?:[\s/][^<>]*)?>"

Edit = tuple[int, int, str]  # [start, end) replaced by the text


class DecodedView(Record):
    """`text` read as rendered/decoded; `origin[i]` is the file offset of `text[i]`."""

    text: str
    origin: tuple[int, ...]
    source: str

    def touches(self, start: int, end: int) -> bool:
        """Whether [start, end) of `text` reads across something undone (a deletion inside
        it, or a decoded character): only then is a finding here new to the file."""
        for index in range(start, min(end, len(self.text))):
            at = self.origin[index]
            if self.source[at] != self.text[index]:
                return True
            if index > start and at != self.origin[index - 1] + 1:
                return True
        return False


def normalized(text: str) -> DecodedView | None:
    """`text` with invisible characters, HTML comments, tags and intraword Markdown deleted
    and entities, escapes and percent-encoding decoded; None when nothing changes."""
    current = text
    origin: list[int] | None = None
    for _ in range(ROUNDS):
        changed = False
        for step in _STEPS:
            edits = list(step(current))
            if edits:
                current, origin = _apply(current, origin, edits)
                changed = True
        if not changed:
            break
    if origin is None:
        return None
    return DecodedView(current, tuple(origin), text)


def _apply(text: str, origin: list[int] | None, edits: list[Edit]) -> tuple[str, list[int]]:
    """`text` with `edits` (sorted, disjoint) applied, and the composed offset map."""
    old = origin if origin is not None else range(len(text))
    pieces: list[str] = []
    mapped: list[int] = []
    position = 0
    for start, end, replacement in edits:
        pieces.append(text[position:start])
        mapped.extend(old[position:start])
        pieces.append(replacement)
        if len(replacement) == end - start:  # one character for each (a byte run in ASCII)
            mapped.extend(old[start:end])
        else:
            mapped.extend([old[start]] * len(replacement))
        position = end
    pieces.append(text[position:])
    mapped.extend(old[position:])
    return "".join(pieces), mapped


def _entities(text: str) -> Iterator[Edit]:
    if "&" not in text:
        return
    # Start-up seam (docs/architecture.md): html loads its entity table; the hook needs it
    # only for text with an `&`.
    import html  # noqa: PLC0415

    for match in compiled(_ENTITY).finditer(text):
        decoded = html.unescape(match.group())
        if decoded != match.group():
            yield match.start(), match.end(), decoded


def _code_points(text: str) -> Iterator[Edit]:
    if "\\" not in text:
        return
    for match in compiled(_CODE_POINT).finditer(text):
        value = int(next(group for group in match.groups() if group), 16)
        if value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF:
            yield match.start(), match.end(), chr(value)


def _byte_runs(text: str) -> Iterator[Edit]:
    """`\\x67\\x68`, `%67%68` and `\\147\\150` runs: UTF-8 when they are, else one
    character per byte."""
    if "\\" not in text and "%" not in text:
        return
    for match in compiled(_BYTE_RUN).finditer(text):
        run = match.group()
        if run[0] == "\\" and run[1] != "x":  # octal
            data = bytes(int(digits, 8) & 0xFF for digits in compiled(_OCTAL).findall(run))
        else:
            data = bytes.fromhex(run.replace("\\x", "").replace("%", ""))
        try:
            decoded = data.decode("utf-8")
        except UnicodeDecodeError:
            decoded = data.decode("latin-1")
        # Each escape is 3 or 4 characters: map each decoded byte to its own escape when the
        # run is one byte per character (ASCII) of one width, so a finding lands on the right
        # column.
        width = len(run) // len(data)
        if len(decoded) == len(data) and width * len(data) == len(run):
            for number, char in enumerate(decoded):
                start = match.start() + number * width
                yield start, start + width, char
        else:
            yield match.start(), match.end(), decoded


def _comments(text: str) -> Iterator[Edit]:
    start = text.find("<!--")
    while start >= 0:
        end = text.find("-->", start + 2)
        if end < 0:
            return  # no comment closes after this: none of the later openings can either
        yield start, end + 3, ""
        start = text.find("<!--", end + 3)


def _tags(text: str) -> Iterator[Edit]:
    if "<" not in text:
        return
    for match in compiled(_TAG).finditer(text):
        yield match.start(), match.end(), ""


# Variation selectors U+FE00–FE0F draw nothing after a letter; they belong after an emoji,
# so they are not findings, but a key split by them reads joined.
_VARIATION = r"[\ufe00-\ufe0f]+"


def _invisible(text: str) -> Iterator[Edit]:
    if text.isascii():
        return
    patterns = [invisible_pattern()] if has_invisible(text) else []
    if compiled(_VARIATION).search(text) is not None:
        patterns.append(compiled(_VARIATION))
    spans = [m.span() for p in patterns for m in p.finditer(text)]
    for start, end in sorted(spans):
        yield start, end, ""


def _intraword(text: str) -> Iterator[Edit]:
    if not any(mark in text for mark in ("*", "~", "`")):
        return
    for match in INTRAWORD.finditer(text):
        yield match.start(), match.end(), ""


def _spaces(text: str) -> Iterator[Edit]:
    if text.isascii():
        return
    # Start-up seam (docs/architecture.md): the look-alike table and unicodedata serve
    # non-ASCII text only.
    from git_memory.lint.fold import space_edits  # noqa: PLC0415

    yield from space_edits(text)


def _folded(text: str) -> Iterator[Edit]:
    if text.isascii():
        return
    # Start-up seam (docs/architecture.md), as in `_spaces`.
    from git_memory.lint.fold import fold_edits  # noqa: PLC0415

    yield from fold_edits(text)


# Decoding first, so an encoded comment or zero-width space is deleted in the same round.
_STEPS: tuple[Callable[[str], Iterator[Edit]], ...] = (
    _entities,
    _code_points,
    _byte_runs,
    _comments,
    _tags,
    rendered_link_edits,
    _invisible,
    _spaces,
    _folded,
    _intraword,
)

# Base64 or hex of readable text: ≥ 90 % printable ASCII, from a 20-character token.
MIN_ENCODED = 20
_HEX = r"(?:[0-9a-fA-F]{2}){16,}"


def _readable(raw: bytes) -> str | None:
    return raw.decode("ascii", "replace") if printable_share(raw) >= PRINTABLE_SHARE else None


# Base64 of an ASCII byte starts a 4-character group with a sextet below 32 (`A`-`Z`, `a`-`f`),
# so at the right alignment nearly every 4th character is one of those: an identifier or a
# random key rarely is, and is not decoded at all.
_ASCII_LEAD = str.maketrans("", "", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef")


def _may_encode_ascii(token: str) -> bool:
    leads = [token[shift::4] for shift in range(4)]
    return any(len(lead.translate(_ASCII_LEAD)) <= len(lead) // 10 for lead in leads if lead)


def encoded_text(token: str) -> str | None:
    """The readable text `token` encodes in base64 (standard or URL-safe, at any of the four
    alignments, after a `name=` prefix) or hex; None when it encodes none."""
    if compiled(_HEX).fullmatch(token):
        return _readable(bytes.fromhex(token))
    if "=" in token.rstrip("="):
        token = token[token.rstrip("=").rindex("=") + 1 :]
    if not _may_encode_ascii(token):
        return None
    for raw in base64_decodings(token, MIN_ENCODED):
        text = _readable(raw)
        if text is not None:
            return text
    return None
