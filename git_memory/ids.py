"""Short ids: abbreviated for people, resolved from any unique abbreviation.

Candidate, plan, task and session ids carry a 32-64 character hex digest
(`extract-8961e31…-c2`). People see the digest cut to 7 hex characters, longer where two
ids shown together would otherwise read the same, and may type any unique abbreviation back:
a plain prefix of the id (`plan-c89d8`), the id with its digest shortened (`extract-8961e31-c2`)
or without its leading kind word (`8961e31-c2`). Matching needs at least 4 characters of the
digest, as git does for object names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from git_memory.errors import UsageError

MIN_SHOWN = 7
MIN_TYPED = 4
_DIGEST = re.compile(r"[0-9a-f]{16,}")


def _digest_span(identifier: str) -> tuple[int, int] | None:
    found = _DIGEST.search(identifier)
    return (found.start(), found.end()) if found else None


def _cut(identifier: str, length: int) -> str:
    span = _digest_span(identifier)
    if span is None or span[1] - span[0] <= length:
        return identifier
    return identifier[: span[0] + length] + identifier[span[1] :]


def abbreviations(identifiers: Iterable[str]) -> dict[str, str]:
    """Each id mapped to its shortest form (>= 7 digest characters) that no other id of the
    set shares."""
    unique = sorted(set(identifiers))
    result: dict[str, str] = {}
    for identifier in unique:
        span = _digest_span(identifier)
        full = span[1] - span[0] if span else 0
        length = MIN_SHOWN
        while length < full and any(
            other != identifier and matches(_cut(identifier, length), other) for other in unique
        ):
            length += 1
        result[identifier] = _cut(identifier, length)
    return result


def short(identifier: str) -> str:
    """One id abbreviated on its own (7 digest characters)."""
    return _cut(identifier, MIN_SHOWN)


def matches(typed: str, identifier: str) -> bool:
    """Whether `typed` abbreviates `identifier` (see the module docstring)."""
    if typed == identifier:
        return True
    if identifier.startswith(typed):
        return _digest_chars(typed, identifier) >= MIN_TYPED or _digest_span(identifier) is None
    words = identifier.split("-")
    typed_words = typed.split("-")
    for skipped in range(len(words) - len(typed_words) + 1):
        if skipped > 1:
            break
        if _words_match(typed_words, words[skipped:]):
            return True
    return False


def _digest_chars(typed: str, identifier: str) -> int:
    span = _digest_span(identifier)
    if span is None:
        return 0
    return max(0, min(len(typed), span[1]) - span[0])


def _words_match(typed_words: Sequence[str], words: Sequence[str]) -> bool:
    if len(typed_words) != len(words):
        return False
    saw_digest = False
    for typed_word, word in zip(typed_words, words, strict=True):
        if typed_word == word:
            saw_digest = saw_digest or bool(_DIGEST.fullmatch(word))
            continue
        if _DIGEST.fullmatch(word) and len(typed_word) >= MIN_TYPED and word.startswith(typed_word):
            saw_digest = True
            continue
        return False
    return saw_digest


def resolve(typed: str, identifiers: Iterable[str], *, what: str, code: str, listed_by: str) -> str:
    """The one id `typed` abbreviates. Unknown: a usage error with `code` (the hint names
    `listed_by`, the command that lists these ids); several: a usage error `GM_ID_AMBIGUOUS`
    listing them."""
    pool = list(identifiers)
    if typed in pool:
        return typed
    found = sorted({identifier for identifier in pool if matches(typed, identifier)})
    if len(found) == 1:
        return found[0]
    if not found:
        raise UsageError(code, f"no {what} {typed!r}", hint=f"`{listed_by}` lists them")
    shown = abbreviations(found)
    listed = ", ".join(shown[identifier] for identifier in found[:10])
    more = f" and {len(found) - 10} more" if len(found) > 10 else ""
    raise UsageError(
        "GM_ID_AMBIGUOUS",
        f"{what} {typed!r} is ambiguous: it matches {listed}{more}",
        hint="type more characters of the id",
        details={"matches": found},
    )
