"""The entropy rule and the cheap precision filters in front of it.

The floor is the reference rule: a `[A-Za-z0-9+/=_-]{20,}` token with ≥ 4.0 bits per char
blocks. Precision improvements, each a shape a random key essentially never has:
- identifiers: camelCase/snake/kebab compounds of words (`getPagesInConfluenceSpace`);
- `name=value` and `word-word-<value>` prefixes are peeled off and the value judged alone;
- hex (in any letter case) is judged as lowercase hex, so a 40-hex commit or a UUID passes
  while 64 uniformly spread hex digits (exactly 4.0 bits) still block;
- fakes built from ascending or repeated runs (`abcdef`, `123456`, `aaaa1111bbbb`) and
  placeholder words (`EXAMPLE`);
- base64 that decodes to readable text (encoded JSON or a host name, not key material).
"""

from __future__ import annotations

import binascii
import itertools
import math
from collections import Counter
from collections.abc import Iterator

from git_memory.patterns import compiled

PART = r"[A-Z]{2,}(?![a-z])|[A-Z]?[a-z]+|[A-Z]|[0-9]+"
VOWELS = frozenset("aeiouyAEIOUY")
SHORT_WORDS = frozenset(
    {
        *("an", "as", "at", "be", "by", "do", "go", "id", "if", "in", "is", "it", "me", "my"),
        *("no", "of", "on", "or", "so", "to", "up", "us", "we", "ok", "v1", "v2", "io", "ui"),
    }
)
PLACEHOLDER_WORDS = ("example", "placeholder", "dummy", "sample", "changeme", "redacted", "xxxxxx")
HEX_CHARS = frozenset("0123456789abcdefABCDEF")
WORD_SEPARATORS = r"[-_]"
# Lowercase words with an optional version (`api03`, `us18`, `sgp`, `local`).
PEELABLE = r"[a-z]+[0-9]*|[A-Z][a-z]{2,}"
# A trailing `-us18`-style region or version tag.
REGION_SUFFIX = r"[a-z]{1,3}[0-9]{1,3}"
MIN_TOKEN = 20
WORDY_SHARE = 0.85
MIN_MEAN_PART = 4.0
SEQUENCE_SHARE = 0.5
MIN_RUN = 3
PRINTABLE_SHARE = 0.9
# 24 base64 chars = 18 bytes: random bytes pass as ≥ 90% printable with odds below 1e-6.
MIN_TEXT_CHARS = 24


def shannon_bits(token: str) -> float:
    """Bits per character of `token` by its own character frequencies."""
    length = len(token)
    counts = Counter(token).values()
    return -sum(n / length * math.log2(n / length) for n in counts)


def _wordy(part: str) -> bool:
    if part.isdigit():
        return len(part) <= 2
    if part.isupper():
        vowels = sum(ch in VOWELS for ch in part)
        return len(part) <= 5 or (len(part) <= 12 and vowels * 10 >= len(part) * 3)
    if len(part) <= 2:
        return part.lower() in SHORT_WORDS
    return any(ch in VOWELS for ch in part)


def is_identifier_like(token: str) -> bool:
    """Whether `token` reads as a compound identifier or path (`hf_requiredTypesForDisplay`)."""
    parts = compiled(PART).findall(token)
    letters = sum(len(p) for p in parts)
    if letters == 0 or sum(ch.isdigit() for ch in token) * 10 > len(token):
        return False
    wordy = sum(len(p) for p in parts if _wordy(p))
    # Random base64 splits into many 2–3 letter fragments; identifiers into real words.
    return wordy >= WORDY_SHARE * letters and letters >= MIN_MEAN_PART * len(parts)


def sequence_share(token: str) -> float:
    """Share of characters inside ascending runs of ≥ 3 (`abc`, `789`, `90` wraps to `0`)."""
    in_runs = 0
    run = 1
    for previous, current in itertools.pairwise(token):
        step = ord(current) - ord(previous)
        if step == 1 or (previous == "9" and current == "0"):
            run += 1
            continue
        in_runs += run if run >= MIN_RUN else 0
        run = 1
    in_runs += run if run >= MIN_RUN else 0
    return in_runs / len(token)


def repeat_share(token: str) -> float:
    """Share of characters inside runs of ≥ 3 of the same character (`aaaa1111bbbb`)."""
    in_runs = sum(
        length
        for length in (len(list(group)) for _, group in itertools.groupby(token))
        if length >= MIN_RUN
    )
    return in_runs / len(token)


def looks_fake(token: str) -> bool:
    """Placeholder-shaped: ascending or repeated runs dominate, a placeholder word, or ≤ 3
    distinct chars. Random key material has either kind of run only by chance (a run of
    three is 1 in 256 per position for hex), never for half its length."""
    lowered = token.lower()
    return (
        sequence_share(token) >= SEQUENCE_SHARE
        or repeat_share(token) >= SEQUENCE_SHARE
        or any(word in lowered for word in PLACEHOLDER_WORDS)
        or len(set(token)) <= 3
    )


def decode_base64(text: str) -> bytes:
    """`base64.b64decode(text, validate=True)` (binascii.Error or ValueError when `text` is not
    strict base64), without that module's import on the hook's path (docs/performance.md)."""
    return binascii.a2b_base64(text.encode("ascii"), strict_mode=True)


def base64_decodings(token: str, min_chars: int) -> Iterator[bytes]:
    """The bytes `token` decodes to as base64 (standard or URL-safe), at each of the four
    alignments that leave at least `min_chars` characters and decode."""
    core = token.rstrip("=").replace("-", "+").replace("_", "/")
    for shift in range(4):
        chunk = core[shift:]
        chunk = chunk[: len(chunk) - len(chunk) % 4]
        if len(chunk) < min_chars:
            return
        try:
            yield decode_base64(chunk)
        except (binascii.Error, ValueError):
            continue


_PRINTABLE = bytes([9, 10, 13, *range(32, 127)])


def printable_share(raw: bytes) -> float:
    """Share of printable ASCII bytes in `raw` (tab and line ends count as printable)."""
    return (len(raw) - len(raw.translate(None, _PRINTABLE))) / max(1, len(raw))


def decodes_to_text(token: str) -> bool:
    """Whether `token` is base64 of mostly printable ASCII (encoded text, not random bytes)."""
    return any(
        printable_share(raw) >= PRINTABLE_SHARE for raw in base64_decodings(token, MIN_TEXT_CHARS)
    )


def _peelable(part: str, leading: bool) -> bool:
    """A separator-delimited part that names the value rather than being part of it."""
    if is_identifier_like(part):
        return True
    if leading:
        return compiled(PEELABLE).fullmatch(part) is not None and len(part) <= 6
    return compiled(REGION_SUFFIX).fullmatch(part) is not None


def value_core(token: str) -> str:
    """The part of a token that could be key material: after `name=`, minus word affixes.

    Returns the whole token when peeling would leave less than 20 characters, so a random
    base64url key that happens to contain `-`/`_` is still judged whole.
    """
    if "=" in token.rstrip("="):
        token = token[token.rstrip("=").rindex("=") + 1 :] or token
    parts = compiled(WORD_SEPARATORS).split(token)
    first, last = 0, len(parts)
    while last - first > 1 and _peelable(parts[first], leading=True):
        first += 1
    while last - first > 1 and _peelable(parts[last - 1], leading=False):
        last -= 1
    start = sum(len(p) + 1 for p in parts[:first])
    end = len(token) - sum(len(p) + 1 for p in parts[last:])
    core = token[start:end]
    return core if len(core) >= MIN_TOKEN else token


def is_high_entropy(token: str, threshold: float) -> bool:
    """The entropy rule with its precision filters."""
    if shannon_bits(token) < threshold:
        return False
    if is_identifier_like(token):
        return False
    core = value_core(token)
    bare = compiled(WORD_SEPARATORS).sub("", core)
    if all(ch in HEX_CHARS for ch in bare):
        return len(bare) >= MIN_TOKEN and shannon_bits(bare.lower()) >= threshold
    if shannon_bits(core) < threshold or is_identifier_like(core):
        return False
    return not (looks_fake(core) or decodes_to_text(core))
