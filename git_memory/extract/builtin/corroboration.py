"""Corroboration: the sessions and people that show a memory, and the rank review gives it.

A fact found in several sessions is one memory (`gather`): its first occurrence speaks for it,
and each session's own occurrence can be the one cited, with that session's quotes. What
ranks a memory is how independently it is shown (`rank`): every person who shows it counts
one, and the sessions count by their order of magnitude, so a command five people ran in 120
sessions comes before a command one person ran in 40, which comes before a one-off. Between
equals, what a person stated comes before a trap seen, and a trap before a command seen to
work (`KIND_WEIGHTS`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from git_memory.extract.builtin.renderers import (
    RENDERER_COMMAND_EXIT,
    RENDERER_COMMAND_FIX,
    RENDERER_USER_RULE,
    BuiltinFact,
)
from git_memory.store.offers import Corroboration

# Between memories of equal corroboration, one row per kind: a rule a person typed states
# what the team wants; a trap shows a failure and its fix; a command shows that it works.
KIND_WEIGHTS = {RENDERER_USER_RULE: 3, RENDERER_COMMAND_FIX: 2, RENDERER_COMMAND_EXIT: 1}
# Ranks are kept as integers: thousandths of (people + log2(sessions)).
SCALE = 1000


def rank(sessions: int, people: int) -> int:
    """How strongly a memory is corroborated: one per person, plus log2 of its sessions.

    5 people in 120 sessions: 11.9; 1 person in 40: 6.3; 2 people in 2: 3; a one-off: 1."""
    return round(SCALE * (max(people, 1) + math.log2(max(sessions, 1))))


@dataclass
class Gathered:
    """One memory found in several sessions: each session's occurrence, and its people."""

    by_session: dict[str, BuiltinFact] = field(default_factory=dict)
    people: set[str] = field(default_factory=set)
    # The keys of memories folded into this one as near-duplicates (`fold_alike`).
    alike: set[str] = field(default_factory=set)

    def occurrences(self) -> list[BuiltinFact]:
        """Each session's occurrence, first seen first, carrying the whole corroboration."""
        sessions = tuple(self.by_session)
        people = tuple(sorted(self.people))
        return [
            replace(fact, sessions=sessions, people=people) for fact in self.by_session.values()
        ]


def gather(
    found: Iterable[tuple[str, str, BuiltinFact]], key: Callable[[BuiltinFact], object]
) -> dict[object, Gathered]:
    """The facts of (session, person, fact) triples merged by `key`, in first-seen order."""
    merged: dict[object, Gathered] = {}
    for session, person, fact in found:
        entry = merged.setdefault(key(fact), Gathered())
        entry.by_session.setdefault(session, fact)
        entry.people.add(person)
    return merged


# Two statements are one memory when most of their words are shared: a rule typed again with
# a detail changed ("… nivel 2 …", "… nivel 3 …"). Different rules on one subject share far
# fewer ("use pnpm for installs" and "use npm for scripts": 2 of 6).
ALIKE_SHARE = 0.6
# In a short statement one word is the whole rule ("run `make lint` before you commit" is not
# "run `make test` before you commit"): only statements of this many words or more fold.
ALIKE_LEAST_WORDS = 8
# A word that begins with this mark must be in both statements for them to be one.
MUST_MATCH = "\0"


def fold_alike(
    groups: Iterable[Gathered],
    words: Callable[[BuiltinFact], frozenset[str]],
    known: Sequence[tuple[str, frozenset[str]]] = (),
) -> list[Gathered]:
    """The memories with each near-duplicate (most `words` shared with an earlier one) folded
    into the first it resembles, which gains its sessions, people and key; a memory that
    resembles one already `known` (its key, its words) also holds that one's key. A word
    `words` gives beginning with `MUST_MATCH` must be the other's too (two rules naming
    different commands stay apart)."""
    kept: list[tuple[frozenset[str], Gathered]] = []
    for group in groups:
        first = next(iter(group.by_session.values()))
        mine = words(first)
        group.alike |= {key for key, theirs in known if _alike(mine, theirs)}
        into = next((g for theirs, g in kept if _alike(mine, theirs)), None)
        if into is None:
            kept.append((mine, group))
            continue
        for session, fact in group.by_session.items():
            into.by_session.setdefault(session, fact)
        into.people |= group.people
        into.alike |= {first.key, *group.alike}
    return [group for _, group in kept]


def _alike(one: frozenset[str], other: frozenset[str]) -> bool:
    if min(len(one), len(other)) < ALIKE_LEAST_WORDS:
        return False
    differing = one ^ other
    if any(word.startswith(MUST_MATCH) for word in differing):
        return False
    return len(one & other) >= ALIKE_SHARE * len(one | other)


def failure_key(fact: BuiltinFact) -> object:
    """A trap is one memory per failing command and error, whatever fix each session found
    first (a later session's shorter way to the same success is not a second trap)."""
    parameters = dict(fact.parameters)
    return parameters.get("failing", ""), parameters.get("error", "")


def corroboration_of(fact: BuiltinFact) -> Corroboration:
    """What a proposed memory's candidate keeps: its key, sessions, people and rank."""
    return Corroboration(
        fact.key,
        fact.sessions,
        fact.people,
        rank(len(fact.sessions), len(fact.people)),
        KIND_WEIGHTS[fact.renderer],
    )


def strengthened(current: Corroboration, fact: BuiltinFact) -> Corroboration | None:
    """A held candidate's corroboration with what a later window showed of its memory added
    (None when that adds no session and no person)."""
    sessions = tuple(sorted({*current.sessions, *fact.sessions}))
    people = tuple(sorted({*current.people, *fact.people}))
    if (len(sessions), len(people)) == (len(current.sessions), len(current.people)):
        return None
    return current._replace(sessions=sessions, people=people, rank=rank(len(sessions), len(people)))
