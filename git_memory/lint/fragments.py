"""Runs of short fragments that read as one token once joined. Pure.

A key cut into pieces shorter than any rule's minimum still reads as the key to a model or a
shell: a line break every 15 characters, the cells of a table row, the items of a list, or a
string concatenation (`'ab''cd'` in a shell, `"ab" + "cd"` in Python or JavaScript,
`"ab" "cd"`, `'ab'.'cd'` in PHP or Perl, `'ab' || 'cd'` in SQL, `"ab" .. "cd"` in Lua).
`joined_runs` finds runs of such fragments separated only by those joiners, and yields each
run of at least two fragments that joins into `MIN_JOINED` characters or more. A plain ASCII
space never joins: prose is words, and each word is judged on its own.

Only fragments that look like key material join (`key_like`): letters and digits that change
class often, as random text does (`R7mK2x`, `Vb8cRt4Y`), not words or numbers. So a wrapped
paragraph or a list of words never joins, whatever its length.
"""

from __future__ import annotations

from collections.abc import Iterator

from git_memory.patterns import compiled
from git_memory.records import Record

MIN_JOINED = 20
MIN_FRAGMENT = 3
# A fragment with fewer class changes than this (`Notes`: one) is a word or a number.
MIN_CHANGES = 2
_FRAGMENT = r"[A-Za-z0-9+/=_-]+"
# What joins two fragments: a line break with the indentation, quote, list and table markers
# around it; a table cell border; the end of one quoted string and the start of the next,
# with a concatenation operator (or none) between them and at most one line break.
_JOINER = (
    r"[ \t]*(?:\|[ \t]*)?\r?\n(?:[ \t]*>)*[ \t]*"
    r"(?:\|[ \t]*|[-*+][ \t]+|[0-9]{1,3}[.)][ \t]+)?"
    r"|[ \t]*\|[ \t]*"
    r"|[\"'`](?:[ \t]*(?:\+|\.\.|\.|\|\||&|~)?[ \t]*(?:\\?\r?\n[ \t]*)?[\"'`])+"
)
# A joiner with a fragment on either side: where a run can be at all.
_SPOT = f"(?:{_JOINER})(?=[A-Za-z0-9+/=_-])"
_JOINER_MARK = "[\n|\"'`]"
_FRAGMENT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-")
# How far back a fragment is looked for: longer ones are keys on their own (entropy rule).
_LONGEST_LOOK = 256
# Fragments that start a key whatever their shape: the provider prefixes.
_PREFIX = r"(?:AKIA|ASIA|gh[oprsu]_|github_pat_|glpat-|npm_|AIza|xox[abps]-|sk-|eyJ)"


class Run(Record):
    """A run of fragments: where its first and last fragments stand, and their text joined."""

    start: int
    end: int
    joined: str


# One class per maximal stretch of digits, capitals or small letters, once punctuation is
# dropped (`human-confirmed` is one stretch of small letters).
_STRETCH = r"[0-9]+|[A-Z]+|[a-z]+"
_PUNCTUATION = str.maketrans("", "", "+/=_-")


def key_like(fragment: str) -> bool:
    """Whether `fragment` looks like a piece of key material rather than a word or number."""
    if compiled(_PREFIX).match(fragment):
        return True
    core = fragment.translate(_PUNCTUATION)
    if len(core) < MIN_FRAGMENT or core.isdigit():
        return False
    if core.isalpha() and (core.islower() or core.isupper()):
        return False  # a word in one case: no class changes at all
    return len(compiled(_STRETCH).findall(core)) > MIN_CHANGES


def joined_runs(text: str) -> Iterator[Run]:
    """Every run of two or more key-like fragments, joined, of `MIN_JOINED` chars or more.

    The regex engine finds the joiners that stand between two fragments (most words of prose
    meet only spaces, so a text has about one per line); only the fragments beside them are
    judged here, and consecutive joiners sharing a fragment make one run.
    """
    run: list[tuple[int, int]] = []
    for left_end, right_start in _spots(text):
        left = _fragment_before(text, left_end)
        right = _fragment_after(text, right_start)
        if not run or run[-1] != left:
            yield from _finished(text, run)
            run = [left] if key_like(text[left[0] : left[1]]) else []
        if not run:
            continue
        if key_like(text[right[0] : right[1]]):
            run.append(right)
        else:
            yield from _finished(text, run)
            run = []
    yield from _finished(text, run)


def _spots(text: str) -> Iterator[tuple[int, int]]:
    """[start, end) of each joiner after a key-like fragment. Every joiner holds a line
    break, a `|` or a quote, which a one-class search finds fast; the joiner is matched from
    there, and only after a fragment that could start or continue a run (most lines end in a
    word, and then the joiner pattern is never compiled)."""
    done = 0
    for hit in compiled(_JOINER_MARK).finditer(text):
        start = hit.start()
        if start < done:
            continue
        while start > 0 and text[start - 1] in " \t":
            start -= 1
        left = _fragment_before(text, start)
        if left[0] == start or not key_like(text[left[0] : start]):
            continue
        spot = compiled(_SPOT).match(text, start)
        if spot is not None:
            done = spot.end()
            yield start, spot.end()


def _fragment_before(text: str, end: int) -> tuple[int, int]:
    start, stop = end, max(0, end - _LONGEST_LOOK)
    while start > stop and text[start - 1] in _FRAGMENT_CHARS:
        start -= 1
    return start, end


def _fragment_after(text: str, start: int) -> tuple[int, int]:
    match = compiled(_FRAGMENT).match(text, start)
    return (start, start) if match is None else match.span()


def _finished(text: str, run: list[tuple[int, int]]) -> Iterator[Run]:
    if len(run) < 2:
        return
    joined = "".join(text[start:end] for start, end in run)
    if len(joined) >= MIN_JOINED:
        yield Run(run[0][0], run[-1][1], joined)


def may_join(text: str) -> bool:
    """A cheap pre-check: only text with a line break, a table border or a quote can hold a
    run (every text of more than one line has one; the scan is linear)."""
    return "\n" in text or "|" in text or "'" in text or '"' in text or "`" in text
