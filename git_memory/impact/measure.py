"""Counting, per entry, the sessions before and after it landed, and the verdict (pure).

Every session is read once into a few inverted indexes (command → the sessions that ran it,
that saw it fail; kind → command → sessions; rule key → sessions whose person stated it;
leading words → sessions), so a thousand entries cost lookups, not a thousand passes over
the sessions. Sessions are numbered oldest first, so a window is a cut of those numbers.

Verdicts (docs/guide-verify.md, "Does the memory help?"):
- `uncommitted`: the entry has no landing commit on this branch yet;
- `too little data`: fewer than `MIN_SESSIONS` sessions on either side of the landing;
- `not relevant since`: no session after the landing touched its subject at all;
- `helped`: so few sessions after the landing hit it that, at the rate before, so few would
  happen by chance at most one time in twenty (binomial tail ≤ `CHANCE`);
- `no change`: anything else.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime

from git_memory.extract.builtin import shell
from git_memory.extract.builtin.rules import rule_facts
from git_memory.impact.subjects import Said, Subject, command_form
from git_memory.sessions.activity import SessionActivity
from git_memory.sessions.records import FAILED
from git_memory.sessions.turns import ToolCall

# A window of fewer sessions moves its rate by more than ten points with one session, and a
# zero there is too likely by chance to mean anything; no rate is shown below it either.
MIN_SESSIONS = 10
CHANCE = 0.05
PREFIX_WORDS = 4


# Sessions that hit the entry's subject, that followed it, that touched it (None: all).
Sets = tuple[set[int], set[int], set[int] | None]
# The same, sorted. the entry's subject, that followed it, that touched it (None: all).
Counted = tuple[list[int], list[int], list[int] | None]


@dataclass(frozen=True)
class LandingSide:
    """One side of the landing: sessions, days spanned, and the counts."""

    sessions: int
    days: int
    hits: int
    followed: int
    relevant: int


@dataclass(frozen=True)
class Measured:
    """An entry's two windows and its verdict (`before`/`after` None when uncommitted)."""

    before: LandingSide | None
    after: LandingSide | None
    verdict: str


class SessionIndex:
    """The sessions, oldest first, read once into lookups. `forbids` (rules' forbidden
    commands) are matched as the leading words of a command line too."""

    def __init__(
        self,
        sessions: Sequence[SessionActivity],
        rule_keys: Iterable[str] = (),
        forbids: Iterable[str] = (),
    ) -> None:
        self.started = [session.started for session in sessions]
        self.ran: dict[str, list[int]] = {}
        self.failed: dict[str, list[int]] = {}
        self.by_kind: dict[str, dict[str, list[int]]] = {}
        self.prefixes: dict[str, list[int]] = {}
        self.stated: dict[str, list[int]] = {}
        self.first: list[dict[str, int]] = []
        self._forbids = frozenset(forbids)
        self._commands: dict[tuple[str, int], str | None] = {}
        self._parsed: dict[str, tuple[str, str | None, tuple[str, ...]]] = {}
        self._rules = _RuleReader(rule_keys)
        for number, session in enumerate(sessions):
            self._read(number, session)

    def _read(self, number: int, session: SessionActivity) -> None:
        first: dict[str, int] = {}
        for position, call in enumerate(session.calls):
            line = self._command(call)
            if line is None:
                continue
            normal, kind, forbidden = self._parse(line)
            first.setdefault(normal, position)
            _add(self.ran, normal, number)
            if call.state == FAILED:
                _add(self.failed, normal, number)
            if kind:
                _add(self.by_kind.setdefault(kind, {}), normal, number)
            for prefix in forbidden:
                _add(self.prefixes, prefix, number)
        self.first.append(first)
        for key in {key for ask in session.asks for key in self._rules.stated(ask)}:
            _add(self.stated, key, number)

    def _command(self, call: ToolCall) -> str | None:
        # Calls with the same input share one decoded value (`session_activity`), which the
        # sessions keep alive: its identity is the key, so each distinct call is read once.
        key = (call.name, id(call.input))
        if key not in self._commands:
            self._commands[key] = shell.command_of(call)
        return self._commands[key]

    def _parse(self, line: str) -> tuple[str, str | None, tuple[str, ...]]:
        """(normal form, kind, the forbidden commands its leading words are)."""
        if line not in self._parsed:
            normal, kind = command_form(line)
            words = line.split()
            leading = (" ".join(words[:n]) for n in range(1, min(len(words), PREFIX_WORDS) + 1))
            forbidden = tuple(prefix for prefix in leading if prefix in self._forbids)
            self._parsed[line] = (normal, kind, forbidden)
        return self._parsed[line]

    def split(self, moment: str) -> int:
        """How many sessions started before `moment` (canonical UTC)."""
        return bisect.bisect_left(self.started, moment)


class _RuleReader:
    """The measured rules a person's message states again, as the rule reader reads it.

    Reading every message is the costliest step, so a message is read only when it holds at
    least half of the words of some measured rule's key (a restated rule holds nearly all:
    the key is the rule's own content words); each distinct message is read once."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.keys = frozenset(keys)
        self._words: dict[str, list[str]] = {}
        self._needed: dict[str, int] = {}
        for key in self.keys:
            words = set(key.removeprefix("rule:").split())
            self._needed[key] = max(1, (len(words) + 1) // 2)
            for word in words:
                self._words.setdefault(word, []).append(key)
        self._read: dict[str, tuple[str, ...]] = {}

    def stated(self, ask: str) -> tuple[str, ...]:
        """The measured rule keys `ask` states."""
        if not self.keys:
            return ()
        if ask not in self._read:
            self._read[ask] = self._stated(ask)
        return self._read[ask]

    def _stated(self, ask: str) -> tuple[str, ...]:
        shared: dict[str, int] = {}
        for word in set(_WORD.findall(ask.casefold())):
            for key in self._words.get(word.strip(".-"), ()):
                shared[key] = shared.get(key, 0) + 1
        if not any(count >= self._needed[key] for key, count in shared.items()):
            return ()
        return tuple(f.key for f in rule_facts([Said(ask)]) if f.key in self.keys)


_WORD = re.compile(r"[a-z0-9_.\-/]+")


def _add(table: dict[str, list[int]], key: str, number: int) -> None:
    found = table.setdefault(key, [])
    if not found or found[-1] != number:
        found.append(number)


def measure(index: SessionIndex, subject: Subject, landed: int | None) -> Measured:
    """The windows and the verdict of one entry landed at `landed` (UTC seconds)."""
    if landed is None:
        return Measured(None, None, "uncommitted")
    moment = datetime.fromtimestamp(landed, UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    cut = index.split(moment)
    hits, followed, relevant = COUNTERS[subject.kind](index, subject)
    counted = (sorted(hits), sorted(followed), None if relevant is None else sorted(relevant))
    total = len(index.started)
    before = _window(index, range(0, cut), moment, counted, before=True)
    after = _window(index, range(cut, total), moment, counted, before=False)
    return Measured(before, after, _verdict(before, after))


def _window(
    index: SessionIndex,
    numbers: range,
    moment: str,
    counted: Counted,
    *,
    before: bool,
) -> LandingSide:
    hits, followed, relevant = counted
    inside = len(numbers)
    edge = index.started[numbers.start] if before and inside else moment
    end = moment if before else (index.started[numbers.stop - 1] if inside else moment)
    return LandingSide(
        sessions=inside,
        days=_days(edge, end),
        hits=_within(hits, numbers),
        followed=_within(followed, numbers),
        relevant=inside if relevant is None else _within(relevant, numbers),
    )


def _within(numbers: list[int], window: range) -> int:
    """How many of the sorted session `numbers` fall in `window`."""
    return bisect.bisect_left(numbers, window.stop) - bisect.bisect_left(numbers, window.start)


def _days(start: str, end: str) -> int:
    first, last = date.fromisoformat(start[:10]), date.fromisoformat(end[:10])
    return max((last - first).days, 0)


def _verdict(before: LandingSide, after: LandingSide) -> str:
    if before.sessions < MIN_SESSIONS or after.sessions < MIN_SESSIONS:
        return "too little data"
    if after.relevant == 0:
        return "not relevant since"
    rate = before.hits / before.sessions
    if before.hits and binomial_at_most(after.hits, after.sessions, rate) <= CHANCE:
        return "helped"
    return "no change"


def binomial_at_most(k: int, n: int, p: float) -> float:
    """The chance of at most `k` hits in `n` sessions that each hit with chance `p`."""
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def _sessions(table: dict[str, list[int]], keys: Iterable[str]) -> set[int]:
    found: set[int] = set()
    for key in keys:
        found.update(table.get(key, ()))
    return found


def _trap(index: SessionIndex, subject: Subject) -> Sets:
    """Hits: the failing command failed; followed: the fix ran before the failing command."""
    hits = set(index.failed.get(subject.command, ()))
    fixed = index.ran.get(subject.fix, ())
    followed = {
        n
        for n in fixed
        if index.first[n][subject.fix] < index.first[n].get(subject.command, 1 << 30)
    }
    return hits, followed, set(index.ran.get(subject.command, ())) | set(fixed)


def _command(index: SessionIndex, subject: Subject) -> Sets:
    """Hits: a variant of the same kind ran; followed: the command itself ran."""
    forms = index.by_kind.get(subject.command_kind, {}) if subject.command_kind else {}
    variants = _sessions(forms, (form for form in forms if form != subject.command))
    used = set(index.ran.get(subject.command, ()))
    return variants, used, variants | used


def _rule(index: SessionIndex, subject: Subject) -> Sets:
    """Hits: a forbidden command ran, or the person stated the rule again; every session is
    one a rule applies to."""
    forbidden = _sessions(index.ran, subject.forbids) | _sessions(index.prefixes, subject.forbids)
    return forbidden | _sessions(index.stated, subject.rule_keys), set(), None


COUNTERS: dict[
    str, Callable[[SessionIndex, Subject], tuple[set[int], set[int], set[int] | None]]
] = {
    "trap": _trap,
    "command": _command,
    "rule": _rule,
}
