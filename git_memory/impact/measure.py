"""Counting, per entry, the sessions before and after it landed, and the verdict (pure).

Every session is read once into a few inverted indexes (distinct command line → the sessions
that ran it; a command's first word → the distinct lines; normal form and kind → sessions;
rule key → sessions whose person stated it), so a thousand entries cost lookups, not a
thousand passes over the sessions. A trap's or rule's command line is compared, through the
command model (`command_line.match.runs`), only with the distinct lines that start with its
first command's first two words (or the first and a later one: options may come between),
once per line. Sessions are numbered oldest first, so a window is a
cut of those numbers.

Verdicts (docs/guide-verify.md, "Does the memory help?"), in this order:
- `uncommitted`: the entry has no landing commit on this branch yet;
- `not relevant`: at least `MIN_SESSIONS` sessions, and none ever touched its subject;
- `too little data`: fewer than `MIN_SESSIONS` sessions on either side of the landing;
- `not relevant since`: no session after the landing touched its subject;
- `too rare to tell`: fewer than `MIN_EVENTS` sessions touched its subject on a side;
- `helped`: the rate of sessions hitting it fell, or the rate following it (adoption) rose,
  by at least `MATERIAL` and beyond chance (binomial tail at the rate before ≤ `CHANCE`);
- `worse`: the same, the other way (either reads `not read` when nothing delivered the
  entry to the agents: `delivery.py`);
- `no change`: anything else.
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import NamedTuple

from git_memory.command_line.line import parse
from git_memory.command_line.match import first_pairs, runs, word_pairs
from git_memory.extract.builtin import shell
from git_memory.extract.builtin.rules import rule_facts
from git_memory.impact.subjects import Said, Subject, command_form, failure_key
from git_memory.sessions.activity import SessionActivity
from git_memory.sessions.records import FAILED

# A window of fewer sessions moves its rate by more than ten points with one session, and a
# zero there is too likely by chance to mean anything; no rate is shown below it either.
MIN_SESSIONS = 10
# Fewer sessions touching the subject on a side cannot show a rate moved.
MIN_EVENTS = 5
# A move smaller than ten points of the sessions is not one a person would act on (79 % →
# 71 % over 140 sessions a side passes a significance test and means little).
MATERIAL = 0.10
CHANCE = 0.05


# Sessions that hit the entry's subject, that followed it, that touched it (None: all).
Sets = tuple[set[int], set[int], set[int] | None]
# The same, sorted.
Counted = tuple[list[int], list[int], list[int] | None]


# A call as read once: its tool, its input's identity, and its session's folder and root.
_Seen = tuple[str, int, str, str]


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
    """An entry's two windows and its verdict (`before`/`after` None when uncommitted);
    `split` and `person_split`: the verdict of each worktree's and each person's sessions
    alone, when one differs."""

    before: LandingSide | None
    after: LandingSide | None
    verdict: str
    split: dict[str, str]
    person_split: dict[str, str] = field(default_factory=dict)


class _Call(NamedTuple):
    # A tuple: sessions hold one per shell call, and a tuple is the cheapest to make.
    line: int  # the distinct (line, directory) it ran
    failed: bool
    output: str


class SessionIndex:
    """The sessions, oldest first, read once into lookups."""

    def __init__(
        self,
        sessions: Sequence[SessionActivity],
        rule_keys: Iterable[str] = (),
        people: Sequence[str] = (),
    ) -> None:
        self.started = [session.started for session in sessions]
        self.worktrees = [session.worktree for session in sessions]
        # Each worktree's and each person's session numbers, when there are several (for
        # the splits); `people` names each session's person, in the sessions' order.
        self.by_worktree = _groups(self.worktrees)
        self.by_person = _groups(people)
        self.ran: dict[str, list[int]] = {}
        self.by_kind: dict[str, dict[str, list[int]]] = {}
        self.stated: dict[str, list[int]] = {}
        self.calls: list[list[_Call]] = []
        self.lines: list[tuple[str, str]] = []
        self.line_sessions: list[list[int]] = []
        self.failed_sessions: dict[int, set[int]] = {}
        self._line_ids: dict[tuple[str, str], int] = {}
        self._by_pair: dict[tuple[str, str], list[int]] = {}
        self._calls: dict[_Seen, tuple[int, tuple[list[int], ...]] | None] = {}
        self._matched: dict[tuple[str, bool], frozenset[int]] = {}
        self._rules = _RuleReader(rule_keys)
        for number, session in enumerate(sessions):
            self._read(number, session)

    def _read(self, number: int, session: SessionActivity) -> None:
        calls: list[_Call] = []
        for call in session.calls:
            # Calls with the same input share one decoded value (`session_activity`), which
            # the sessions keep alive: its identity is the key, so each distinct call and
            # each distinct line is read once.
            seen = (call.name, id(call.input), session.at, session.root)
            if seen not in self._calls:
                at = shell.call_start(session.at, call, session.relative)
                self._calls[seen] = self._line(shell.command_of(call), at)
            found = self._calls[seen]
            if found is None:
                continue
            line, tables = found
            failed = call.state == FAILED
            calls.append(_Call(line, failed, call.output or ""))
            if failed:
                self.failed_sessions.setdefault(line, set()).add(number)
            for table in tables:
                if not table or table[-1] != number:
                    table.append(number)
        self.calls.append(calls)
        for rule in {rule for ask in session.asks for rule in self._rules.stated(ask)}:
            _add(self.stated.setdefault(rule, []), number)

    def _line(self, text: str | None, at: str) -> tuple[int, tuple[list[int], ...]] | None:
        """The distinct line's number and the session lists a call of it adds to."""
        if text is None:
            return None
        key = (text, at)
        found = self._line_ids.get(key)
        if found is None:
            found = self._line_ids[key] = len(self.lines)
            self.lines.append(key)
            self.line_sessions.append([])
            pairs = {pair for step in parse(text).steps for pair in word_pairs(step.command)}
            for pair in pairs:
                self._by_pair.setdefault(pair, []).append(found)
        normal, kind = command_form(text)
        tables = [self.line_sessions[found], self.ran.setdefault(normal, [])]
        if kind:
            tables.append(self.by_kind.setdefault(kind, {}).setdefault(normal, []))
        return found, tuple(tables)

    def matching(self, memory: str, *, leading: bool = False) -> frozenset[int]:
        """The distinct lines that run the memory's command line (`match.runs`)."""
        key = (memory, leading)
        if key not in self._matched:
            pairs = first_pairs(memory)
            candidates = {line for pair in pairs for line in self._by_pair.get(pair, ())}
            self._matched[key] = frozenset(
                line
                for line in candidates
                if runs(self.lines[line][0], memory, at=self.lines[line][1], leading=leading)
            )
        return self._matched[key]

    def sessions_running(self, lines: Collection[int]) -> set[int]:
        """The sessions that ran any of `lines`."""
        return {number for line in lines for number in self.line_sessions[line]}

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
        return tuple(
            f.key for f in rule_facts([Said(ask)], screen_secrets=False) if f.key in self.keys
        )


_WORD = re.compile(r"[a-z0-9_.\-/]+")


def _groups(names: Sequence[str]) -> dict[str, list[int]]:
    """The session numbers of each name, when there are several names."""
    groups: dict[str, list[int]] = {}
    if len(set(names)) > 1:
        for number, name in enumerate(names):
            groups.setdefault(name, []).append(number)
    return groups


def _add(found: list[int], number: int) -> None:
    if not found or found[-1] != number:
        found.append(number)


def measure(index: SessionIndex, subject: Subject, landed: int | None) -> Measured:
    """The windows and the verdict of one entry landed at `landed` (UTC seconds)."""
    if landed is None:
        return Measured(None, None, "uncommitted", {})
    moment = datetime.fromtimestamp(landed, UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    cut = index.split(moment)
    hits, followed, relevant = COUNTERS[subject.kind](index, subject)
    counted = (sorted(hits), sorted(followed), None if relevant is None else sorted(relevant))
    everyone = range(len(index.started))
    before, after = _sides(index, everyone, cut, moment, counted)
    adoption = subject.kind != "rule" or bool(subject.prefers)
    verdict = _verdict(before, after, adoption=adoption)

    def split(groups: Iterable[tuple[str, list[int]]]) -> dict[str, str]:
        """Each group's verdict alone, when one tells something else than the verdict."""
        alone = {
            name: _verdict(*_sides(index, own, cut, moment, counted), adoption=adoption)
            for name, own in groups
        }
        differs = any(told not in (verdict, "too little data") for told in alone.values())
        return alone if differs else {}

    # Worktrees by name; people as they came (`you`, `teammate 1`, …).
    worktrees = split(sorted(index.by_worktree.items()))
    return Measured(before, after, verdict, worktrees, split(index.by_person.items()))


def _sides(
    index: SessionIndex, numbers: Sequence[int], cut: int, moment: str, counted: Counted
) -> tuple[LandingSide, LandingSide]:
    middle = bisect.bisect_left(numbers, cut)
    early, late = numbers[:middle], numbers[middle:]
    return (
        _window(index, early, moment, counted, before=True),
        _window(index, late, moment, counted, before=False),
    )


def _window(
    index: SessionIndex,
    numbers: Sequence[int],
    moment: str,
    counted: Counted,
    *,
    before: bool,
) -> LandingSide:
    hits, followed, relevant = counted
    inside = len(numbers)
    edge = index.started[numbers[0]] if before and inside else moment
    end = moment if before else (index.started[numbers[-1]] if inside else moment)
    return LandingSide(
        sessions=inside,
        days=_days(edge, end),
        hits=_within(hits, numbers),
        followed=_within(followed, numbers),
        relevant=inside if relevant is None else _within(relevant, numbers),
    )


def _within(found: list[int], window: Sequence[int]) -> int:
    """How many of the sorted session numbers `found` are in the sorted `window`."""
    if isinstance(window, range):
        return bisect.bisect_left(found, window.stop) - bisect.bisect_left(found, window.start)
    if not window:
        return 0
    inside = set(window)
    low, high = bisect.bisect_left(found, window[0]), bisect.bisect_right(found, window[-1])
    return sum(1 for number in found[low:high] if number in inside)


def _days(start: str, end: str) -> int:
    first, last = date.fromisoformat(start[:10]), date.fromisoformat(end[:10])
    return max((last - first).days, 0)


def _verdict(before: LandingSide, after: LandingSide, *, adoption: bool) -> str:
    sessions = before.sessions + after.sessions
    if sessions >= MIN_SESSIONS and before.relevant + after.relevant == 0:
        return "not relevant"
    if before.sessions < MIN_SESSIONS or after.sessions < MIN_SESSIONS:
        return "too little data"
    if after.relevant == 0:
        return "not relevant since"
    if before.relevant < MIN_EVENTS or after.relevant < MIN_EVENTS:
        return "too rare to tell"
    trouble = moved(before.hits, before.sessions, after.hits, after.sessions)
    adopted = moved(before.followed, before.sessions, after.followed, after.sessions)
    adopted = adopted if adoption else 0
    if trouble < 0 or (trouble == 0 and adopted > 0):
        return "helped"
    if trouble > 0 or adopted < 0:
        return "worse"
    return "no change"


def moved(before: int, sessions_before: int, after: int, sessions_after: int) -> int:
    """-1 when the rate fell, 1 when it rose, by a material amount and beyond chance at the
    rate before; 0 otherwise."""
    rate, then = after / sessions_after, before / sessions_before
    if abs(rate - then) < MATERIAL:
        return 0
    if rate < then:
        return -1 if binomial_at_most(after, sessions_after, then) <= CHANCE else 0
    chance = 1 - binomial_at_most(after - 1, sessions_after, then) if after else 1.0
    return 1 if chance <= CHANCE else 0


@functools.lru_cache(maxsize=4096)
def binomial_at_most(k: int, n: int, p: float) -> float:
    """The chance of at most `k` hits in `n` sessions that each hit with chance `p`."""
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def _sessions(table: dict[str, list[int]], keys: Iterable[str]) -> set[int]:
    found: set[int] = set()
    for key in keys:
        found.update(table.get(key, ()))
    return found


@functools.lru_cache(maxsize=4096)
def _failure_key(output: str) -> str:
    return failure_key(output)


def _trap(index: SessionIndex, subject: Subject) -> Sets:
    """Hits: a line running the failing command (and not the fix) failed with the trap's
    error; followed: the fix ran before any such line; relevant: either ran. Only the
    sessions that ran both, or saw such a line fail, are read call by call."""
    fix = index.matching(subject.fix)
    failing = index.matching(subject.command) - fix
    fixed = index.sessions_running(fix)
    tripped = index.sessions_running(failing)
    followed = fixed - tripped
    for number in fixed & tripped:  # which came first
        first = next(
            call.line for call in index.calls[number] if call.line in fix or call.line in failing
        )
        if first in fix:
            followed.add(number)
    hits = {number for line in failing for number in index.failed_sessions.get(line, ())}
    if subject.error:
        hits = {
            number
            for number in hits
            if any(
                call.failed
                and call.line in failing
                and _failure_key(call.output).startswith(subject.error)
                for call in index.calls[number]
            )
        }
    return hits, followed, fixed | tripped


def _command(index: SessionIndex, subject: Subject) -> Sets:
    """Hits: a variant of the same kind ran; followed: the command itself ran."""
    forms = index.by_kind.get(subject.command_kind, {}) if subject.command_kind else {}
    variants = _sessions(forms, (form for form in forms if form != subject.command))
    used = set(index.ran.get(subject.command, ()))
    return variants, used, variants | used


def _rule(index: SessionIndex, subject: Subject) -> Sets:
    """Hits: a forbidden command ran without a command the rule asks for before it (or in
    the same line), or the person stated the rule again; followed: a command it asks for
    ran; relevant: sessions that ran either or stated it (every session for a rule that
    names no command)."""
    prefers = frozenset().union(*(index.matching(m, leading=True) for m in subject.prefers))
    forbids = frozenset().union(*(index.matching(m, leading=True) for m in subject.forbids))
    stated = _sessions(index.stated, subject.rule_keys)
    followed = index.sessions_running(prefers)
    forbidden = index.sessions_running(forbids)
    broken = forbidden - followed
    for number in forbidden & followed:  # the order in the session tells
        for call in index.calls[number]:
            if call.line in prefers:
                break
            if call.line in forbids:
                broken.add(number)
                break
    touched = followed | forbidden
    relevant = (touched | stated) if subject.lines else None
    return broken | stated, followed, relevant


COUNTERS: dict[str, Callable[[SessionIndex, Subject], Sets]] = {
    "trap": _trap,
    "command": _command,
    "rule": _rule,
}
