"""Short ids: abbreviated for people, resolved from any unique abbreviation.

Candidate, plan, task and session ids carry a 32-64 character hex digest
(`extract-8961e31…-c2`). People see the digest cut to 7 hex characters, longer where another
id of the same kind would otherwise read the same, and may type any unique abbreviation back:
a plain prefix of the id (`plan-c89d8`), the id with its digest shortened (`extract-8961e31-c2`)
or without its leading kind word (`8961e31-c2`). Matching needs at least 4 characters of the
digest, as git does for object names.

An id without a digest (an entry's slug, at most 64 characters) is always shown whole: it is
what a person reads and copies. Typed back, any prefix of at least 4 characters names the one
id it starts (`make-b` for `make-build-builds-the-project` when nothing else starts so), with
or without a trailing `…` or `...` (the mark older versions printed after a cut name); a whole
id always names itself, even when it starts a longer one (`storybook` beside `storybook-2`).

Like git, which abbreviates an object name against every object of the repository, an
abbreviation is made unique against the whole namespace the resolver searches
(`abbreviate_within`), not only against the ids printed together.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from git_memory.errors import UsageError

MIN_SHOWN = 7
MIN_TYPED = 4
_TYPED_MARKS = ("…", "...")
_DIGEST = re.compile(r"[0-9a-f]{16,}")


def _digest_span(identifier: str) -> tuple[int, int] | None:
    found = _DIGEST.search(identifier)
    return (found.start(), found.end()) if found else None


def _cut(identifier: str, length: int) -> str:
    """`identifier` with its digest cut to `length` characters (a name without a digest is
    never cut)."""
    span = _digest_span(identifier)
    if span is None or span[1] - span[0] <= length:
        return identifier
    return identifier[: span[0] + length] + identifier[span[1] :]


def _least(identifier: str, minimum: int) -> int:
    return len(identifier) if _digest_span(identifier) is None else minimum


def _head(identifier: str, least: int) -> str:
    """The part of `identifier` its shortest form keeps: up to `least` digest characters
    (a name: all of it)."""
    span = _digest_span(identifier)
    return identifier[: (span[0] if span else 0) + least]


def abbreviate_within(
    identifiers: Iterable[str], namespace: Iterable[str], *, minimum: int = MIN_SHOWN
) -> dict[str, str]:
    """Each of `identifiers` mapped to its shortest form (>= `minimum` digest characters)
    that names it alone among `namespace`, every id a resolver of this kind searches.

    Ids of one kind share their words around the digest, so only an id that starts with the
    same words and first shown digest characters can read the same: one pass over the
    namespace keeps those (a prefix test done by `str.startswith`), and each shown id is
    lengthened against them alone.
    """
    heads = {i: _head(i, _least(i, minimum)) for i in set(identifiers)}
    if not heads:
        return {}
    wanted = tuple(set(heads.values()))
    near = [other for other in namespace if other.startswith(wanted)]
    return {
        identifier: _unique_cut(
            identifier,
            [other for other in near if other != identifier and other.startswith(head)],
            _least(identifier, minimum),
        )
        for identifier, head in heads.items()
    }


def _unique_cut(identifier: str, near: Sequence[str], length: int) -> str:
    while length < len(identifier) and any(
        matches(_cut(identifier, length), other) for other in near
    ):
        length += 1
    return _cut(identifier, length)


def abbreviations(identifiers: Iterable[str]) -> dict[str, str]:
    """Each id mapped to its shortest form (>= 7 digest characters) that no other id of the
    set shares."""
    unique = set(identifiers)
    return abbreviate_within(unique, unique)


def matches(typed: str, identifier: str) -> bool:
    """Whether `typed` abbreviates `identifier` (see the module docstring)."""
    if typed == identifier:
        return True
    typed = _without_mark(typed)
    if _digest_span(identifier) is None:
        return len(typed) >= MIN_TYPED and identifier.startswith(typed)
    if identifier.startswith(typed):
        return _digest_chars(typed, identifier) >= MIN_TYPED
    words = identifier.split("-")
    typed_words = typed.split("-")
    for skipped in range(len(words) - len(typed_words) + 1):
        if skipped > 1:
            break
        if _words_match(typed_words, words[skipped:]):
            return True
    return False


def is_cut(typed: str) -> bool:
    """Whether `typed` ends with the mark of a cut name (`…` as older versions printed it, or
    `...` typed by hand)."""
    return typed.endswith(_TYPED_MARKS)


def _without_mark(typed: str) -> str:
    for mark in _TYPED_MARKS:
        if typed.endswith(mark):
            return typed[: -len(mark)]
    return typed


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
    raise ambiguous(typed, found, what=what)


def ambiguous(typed: str, found: Sequence[str], *, what: str) -> UsageError:
    """`GM_ID_AMBIGUOUS` for `typed`, listing (up to ten of) the ids it matches."""
    shown = abbreviations(found)
    listed = ", ".join(shown[identifier] for identifier in found[:10])
    more = f" and {len(found) - 10} more" if len(found) > 10 else ""
    return UsageError(
        "GM_ID_AMBIGUOUS",
        f"{what} {typed!r} is ambiguous: it matches {listed}{more}",
        hint="type more characters of the id",
        details={"matches": list(found)},
    )
