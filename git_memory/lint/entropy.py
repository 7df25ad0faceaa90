"""Shannon entropy of candidate tokens, and the cheap precision filters in front of it.

The floor is the reference rule: a `[A-Za-z0-9+/=_-]{20,}` token with ≥ 4.0 bits per char
blocks. On top of it, tokens that are plainly identifiers are let through: a token made only
of letters whose camelCase/snake/kebab parts are all words (≥ 3 letters, vowels present) or
short acronyms. Such a token is a function or constant name, not a key; a real random key of
20+ characters almost never lacks digits and also splits into vowel-free fragments.
"""

from __future__ import annotations

import math
import re
from collections import Counter

IDENTIFIER_CHARS = re.compile(r"[A-Za-z_-]+")
IDENTIFIER_PART = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z]?[a-z]+|[A-Z]")
VOWELS = frozenset("aeiouyAEIOUY")
MIN_WORD = 3
MAX_ACRONYM = 5


def shannon_bits(token: str) -> float:
    """Bits per character of `token` by its own character frequencies."""
    length = len(token)
    counts = Counter(token).values()
    return -sum(n / length * math.log2(n / length) for n in counts)


def is_identifier_like(token: str) -> bool:
    """Whether `token` reads as a compound identifier (`getPagesInConfluenceSpace`)."""
    if IDENTIFIER_CHARS.fullmatch(token) is None:
        return False
    parts = IDENTIFIER_PART.findall(token)
    for part in parts:
        if part.isupper():
            if len(part) > MAX_ACRONYM:
                return False
            continue
        if len(part) < MIN_WORD or not any(ch in VOWELS for ch in part):
            return False
    return bool(parts)


def is_high_entropy(token: str, threshold: float) -> bool:
    """The entropy rule with its identifier filter."""
    if shannon_bits(token) < threshold:
        return False
    return not is_identifier_like(token)
