"""Encodings a reader or a tool undoes in one step, found and decoded. Pure.

`segments(text)` yields each stretch of `text` written in one of them with the text it
decodes to: quoted-printable (`=67=68=70`, soft line breaks `=` at a line end), Ascii85
(`<~…~>`, or a bare run of its alphabet), decimal character codes (`103,104,112,95` as
`String.fromCharCode` or `bytes([...])` take them, `chr(103)+chr(104)`). The lint reads the
decoded text with every rule and reports what it finds at the segment. Base64 and hex are
decoded where the entropy rule meets them (`normalize.encoded_text`), also when wrapped
(`fragments.joined_runs`); byte escapes, entities and percent-encoding inline
(`normalize.normalized`).

`rot13` and `reversed` views are whole-text transforms read by the provider patterns only
(`transformed`): a reversed or rotated key keeps its entropy, so only its prefix is news.
Each pre-check is a substring or one linear search, so ordinary text pays nothing more.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from git_memory.lint.entropy import PRINTABLE_SHARE, printable_share
from git_memory.patterns import compiled
from git_memory.records import Record

MIN_DECODED = 16
# At least four escaped bytes in a run; what stands between them is kept as written.
_QP = r"(?:[!-<>-~]|=[0-9A-F]{2}|=\r?\n)*(?:=[0-9A-F]{2}(?:[!-<>-~]|=\r?\n)*){4,}"
_A85_DELIMITED = r"<~([!-uz\s]{5,}?)~>"
# A bare Ascii85 run: its alphabet without the space, long enough to hold a key, with
# punctuation in it (a run of letters and digits alone is a token the other rules read).
_A85_MIN = 25
_A85_BARE = rf"(?<![!-u])[!-u]{{{_A85_MIN},}}(?![!-u])"
_A85_RUNS = (_A85_BARE,)
_A85_PUNCTUATION = r"[!-/:-@\[-`]"
_MIN_A85_PUNCTUATION = 3
_DECIMALS = (
    r"(?<![0-9.])(?:[0-9]{2,3}[ \t]*[,;][ \t]*){7,}[0-9]{2,3}(?![0-9.])"
    r"|(?<![0-9.])(?:[0-9]{2,3} ){7,}[0-9]{2,3}(?![0-9.])"
    r"|(?:chr\([0-9]{2,3}\)[ \t]*[+.,]?[ \t]*){8,}"
)


# Two codes and a separator in a row, a `chr(`, or four space-separated codes: the decimal
# forms all hold one.
_DECIMALS_HINT = (
    r"[0-9]{2,3}[ \t]*[,;][ \t]*[0-9]{2,3}[ \t]*[,;]|chr\(|(?:[0-9]{2,3} ){3}[0-9]{2,3}"
)


class Segment(Record):
    """[start, end) of the text, written in an encoding, and what it decodes to."""

    start: int
    end: int
    decoded: str


def _readable(raw: bytes) -> str | None:
    if len(raw) < MIN_DECODED or printable_share(raw) < PRINTABLE_SHARE:
        return None
    return raw.decode("ascii", "replace")


def _quoted_printable(text: str) -> Iterator[Segment]:
    if compiled("=[0-9A-F]{2}").search(text) is None:
        return
    for match in compiled(_QP).finditer(text):
        raw = compiled(r"=\r?\n").sub("", match.group())
        data = compiled("=([0-9A-F]{2})").sub(lambda m: chr(int(m.group(1), 16)), raw)
        decoded = _readable(data.encode("latin-1"))
        if decoded is not None:
            yield Segment(match.start(), match.end(), decoded)


def a85_decode(encoded: str) -> bytes | None:
    """The bytes of Ascii85 `encoded` (whitespace ignored, `z` for four zero bytes), or None."""
    data = "".join(encoded.split()).replace("z", "!!!!!")
    if any(not 33 <= ord(char) <= 117 for char in data):
        return None
    padding = -len(data) % 5
    data += "u" * padding
    out = bytearray()
    for index in range(0, len(data), 5):
        value = 0
        for char in data[index : index + 5]:
            value = value * 85 + ord(char) - 33
        if value > 0xFFFFFFFF:
            return None
        out += value.to_bytes(4, "big")
    return bytes(out[: len(out) - padding])


def _ascii85(text: str) -> Iterator[Segment]:
    spans = [(m.start(), m.end(), m.group(1)) for m in _finditer(_A85_DELIMITED, text, "<~")]
    # A bare run is one word of 25 characters or more: most texts have none to search for.
    bare = () if all(len(word) < _A85_MIN for word in text.split()) else _A85_RUNS
    for match in (m for source in bare for m in compiled(source).finditer(text)):
        if len(compiled(_A85_PUNCTUATION).findall(match.group())) >= _MIN_A85_PUNCTUATION:
            spans.append((match.start(), match.end(), match.group()))
    for start, end, body in spans:
        raw = a85_decode(body)
        decoded = None if raw is None else _readable(raw)
        if decoded is not None:
            yield Segment(start, end, decoded)


def _finditer(source: str, text: str, trigger: str) -> Iterator[re.Match[str]]:
    if trigger in text:
        yield from compiled(source).finditer(text)


def _decimal_codes(text: str) -> Iterator[Segment]:
    if compiled(_DECIMALS_HINT).search(text) is None:
        return
    for match in compiled(_DECIMALS).finditer(text):
        codes = [int(number) for number in compiled("[0-9]{2,3}").findall(match.group())]
        if all(32 <= code < 127 for code in codes):
            yield Segment(match.start(), match.end(), "".join(map(chr, codes)))


def segments(text: str) -> Iterator[Segment]:
    """Every stretch of `text` in quoted-printable, Ascii85 or decimal character codes."""
    yield from _quoted_printable(text)
    yield from _ascii85(text)
    yield from _decimal_codes(text)


_ROT13 = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm",
)


def rot13(text: str) -> str:
    """`text` with every ASCII letter rotated by 13 (its own inverse; offsets kept)."""
    return text.translate(_ROT13)
