"""The builtin extraction of a whole window: every memory once, placed in one task.

Facts are found per session (a trap needs its session's order) and then merged across the
window by their key (`corroboration.gather`, `worked.gather_worked`): a command that worked
in four sessions is one memory whose text counts the sessions, a rule stated twice is one
rule; each carries the sessions and people that show it, which rank it in review. Keys
already held by approved memory or by an earlier candidate are not proposed again; a key a
candidate still waiting for review holds comes back as more corroboration of it (`again`).
Each fact is then given to one extraction task that holds its turns, because a candidate
can only cite the evidence of its own task (at most `MAX_CANDIDATES_PER_BATCH` per task; a
memory shown in several sessions can go to any of them, with that session's quotes). A
command a stated rule forbids ("use `cargo nextest run` instead of `cargo test`", "always
pnpm, never npm") is not proposed as working, and neither is a trap whose fix it forbids.
Each fact carries the words that back it: the command as run and its observed result line,
the person's sentence for a rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from git_memory.contracts.extraction import MAX_CANDIDATES_PER_BATCH
from git_memory.extract.builtin import shell
from git_memory.extract.builtin.corroboration import Gathered, failure_key, fold_alike, gather
from git_memory.extract.builtin.languages import language_named
from git_memory.extract.builtin.missing import missing_and_alternative
from git_memory.extract.builtin.phrased import conduct_key
from git_memory.extract.builtin.renderers import TRAP_PREFIX, BuiltinFact
from git_memory.extract.builtin.rule_keys import rule_key, rule_words
from git_memory.extract.builtin.rules import rule_facts
from git_memory.extract.builtin.runs import session_runs
from git_memory.extract.builtin.traps import trap_facts
from git_memory.extract.builtin.worked import Worked, exit_fact, gather_worked, one_per_script

_BACKTICKED = re.compile(r"`([^`]+)`")


@dataclass
class WindowFacts:
    """The memories a window shows that nothing holds yet (each as its occurrences, one per
    session, first seen first), and those whose key a candidate still waiting for review
    holds: what this window adds to its corroboration."""

    memories: list[list[BuiltinFact]] = field(default_factory=list)
    again: list[BuiltinFact] = field(default_factory=list)

    def sessions(self) -> list[str]:
        """The sessions whose turns the memories' first occurrences cite, in order."""
        return list(dict.fromkeys(_session_of(m[0]) for m in self.memories if m))


@dataclass
class WindowPlan:
    """The facts each task proposes (by task id), and the window's `again`."""

    placed: dict[str, list[BuiltinFact]] = field(default_factory=dict)
    again: list[BuiltinFact] = field(default_factory=list)


@dataclass
class _Found:
    """What the sessions of a window show, merged across them."""

    traps: list[tuple[str, str, BuiltinFact]] = field(default_factory=list)
    rules: list[tuple[str, str, BuiltinFact]] = field(default_factory=list)
    worked: dict[str, Worked] = field(default_factory=dict)


def plan_window(
    sessions: Sequence[tuple[str, Sequence[Any]]],
    task_of_turn: Mapping[str, str],
    known: set[str],
    scrub: Callable[[str], str] = str,
    *,
    programs: Collection[str] = (),
    people: Mapping[str, str] | None = None,
    held: Collection[str] = (),
    known_texts: Sequence[str] = (),
    tally: dict[str, int] | None = None,
) -> WindowPlan:
    """The facts of a window (`find_window`), each placed in a task (`place_facts`)."""
    found = find_window(
        sessions,
        known,
        scrub,
        programs=programs,
        people=people,
        held=held,
        known_texts=known_texts,
        tally=tally,
    )
    return WindowPlan(place_facts(found.memories, task_of_turn), found.again)


def find_window(
    sessions: Sequence[tuple[str, Sequence[Any]]],
    known: set[str],
    scrub: Callable[[str], str] = str,
    *,
    programs: Collection[str] = (),
    people: Mapping[str, str] | None = None,
    held: Collection[str] = (),
    known_texts: Sequence[str] = (),
    tally: dict[str, int] | None = None,
) -> WindowFacts:
    """The facts of a window: `sessions` are (session key, ordered turn records);
    `programs` are the sessions a program drove (no rules come from their prompts); `people`
    names the person of each session; `known` are keys not to propose again, of which `held`
    are those of candidates still waiting (their facts come back in `again`); `known_texts`
    are the texts of those memories, which a rule in nearly the same words is one of. `tally`,
    when given, receives how many facts each session showed before what is known was left
    out."""
    found = _Found()
    for session_key, records in sessions:
        person = (people or {}).get(session_key, "")
        program = session_key in programs
        runs = list(session_runs(records, scrub))
        traps, rules = trap_facts(runs), rule_facts(records, scrub, program=program)
        found.traps += [(session_key, person, fact) for fact in traps]
        found.rules += [(session_key, person, fact) for fact in rules]
        shown = gather_worked(found.worked, session_key, person, runs, records, program=program)
        if tally is not None:
            tally[session_key] = len(traps) + len(rules) + shown
    like = [
        (key, rule_words(text))
        for text in known_texts
        for key in memory_keys(text)
        if key.startswith("rule:")
    ]
    return _memories(found, known, set(held), like)


def _memories(
    found: _Found, known: set[str], held: set[str], like: Sequence[tuple[str, frozenset[str]]]
) -> WindowFacts:
    facts = WindowFacts()
    rules = fold_alike(
        gather(found.rules, lambda fact: fact.key).values(),
        lambda fact: rule_words(fact.content),
        like,
    )
    forbidden = forbidden_commands(g.occurrences()[0].content for g in rules)
    # A trap whose fix a stated rule forbids would hand a teammate the forbidden command.
    people = {session: person for session, person, _ in found.traps}
    traps = [
        g
        for g in _one_per_lack(list(gather(found.traps, failure_key).values()), people)
        if not _forbidden(dict(g.occurrences()[0].parameters).get("fix", ""), forbidden)
    ]
    candidates = [(g.occurrences(), g.alike) for g in [*_one_per_fix(traps), *rules]]
    for command, entry in one_per_script(found.worked).items():
        if entry.shown and not _forbidden(command, forbidden):
            candidates.append((_command_occurrences(command, entry), set()))
    seen = set(known)
    for occurrences, alike in candidates:
        first = occurrences[0]
        # A near-duplicate folded into this memory may be the one a candidate already holds.
        keys = [first.key, *sorted(alike)]
        facts.again += [replace(first, key=key) for key in keys if key in held][:1]
        if seen.isdisjoint(keys):
            seen.update(keys)
            facts.memories.append(occurrences)
    return facts


# The fewest people whose sessions show that the machine lacks a program of everyday use
# (`missing.py`) for the lack to be the team's environment (a shared container image, a
# sandbox), not one person's machine. Counted over the sessions of one extraction's window.
MACHINE_LACK_PEOPLE = 2


def _lack(trap: Gathered) -> str | None:
    """The program of everyday use a trap says the machine lacks (`rg`), whatever the shell's
    words for it and whatever was used instead; None for any other trap."""
    values = dict(trap.occurrences()[0].parameters)
    failing, fix = values.get("failing", ""), values.get("fix", "")
    lacks = values.get("mode") == "variant" and missing_and_alternative(failing, fix)
    return failing if lacks else None


def _one_per_lack(traps: Sequence[Gathered], person_of: Mapping[str, str]) -> list[Gathered]:
    """One memory per program the machines lack, in the place of its first trap, when the
    sessions of `MACHINE_LACK_PEOPLE` people show it (one person's machine is not the project
    every teammate works on): every session that showed the lack corroborates it, whatever its
    shell's words, and it says what most people used instead (`person_of`: each session's;
    then most sessions, then the first seen). The keys of the others are its own, so a waiting
    candidate of any of them is this memory."""
    merged: dict[str, Gathered] = {}
    for trap in traps:
        lack = _lack(trap)
        if lack is not None:
            into = merged.setdefault(lack, Gathered())
            for session, fact in trap.by_session.items():
                into.by_session.setdefault(session, fact)
            into.people |= trap.people
            into.alike |= trap.alike | {fact.key for fact in trap.by_session.values()}
    for entry in merged.values():
        used: dict[str, list[str]] = {}  # each fix's sessions' people
        for session, fact in entry.by_session.items():
            used.setdefault(_fix_of(fact), []).append(person_of.get(session) or session)
        best = max(used, key=lambda fix: (len(set(used[fix])), len(used[fix])))
        entry.by_session = dict(
            sorted(entry.by_session.items(), key=lambda item: _fix_of(item[1]) != best)
        )
        entry.alike.discard(entry.occurrences()[0].key)  # the memory's own key
    kept: list[Gathered] = []
    for trap in traps:
        lack = _lack(trap)
        if lack is None:
            kept.append(trap)
        elif lack in merged:
            entry = merged.pop(lack)
            if len(entry.people - {""}) >= MACHINE_LACK_PEOPLE:
                kept.append(entry)
    return kept


def _fix_of(fact: BuiltinFact) -> str:
    return dict(fact.parameters).get("fix", "")


def _one_per_fix(traps: Sequence[Gathered]) -> list[Gathered]:
    """A trap met on the way to another one's fix is the same memory: `firebase deploy`
    fails, run `npm install … && ./node_modules/.bin/firebase deploy` instead, makes the later
    "`./node_modules/.bin/firebase deploy` fails unless `npm install …` runs first" one."""
    fixes = [_steps(g, "fix") for g in traps]
    kept = []
    for index, gathered in enumerate(traps):
        failing, steps = _steps(gathered, "failing"), fixes[index]
        covered = any(
            n != index and failing <= fix and steps <= fix and (steps != fix or n < index)
            for n, fix in enumerate(fixes)
        )
        if not covered:
            kept.append(gathered)
    return kept


def _steps(gathered: Gathered, name: str) -> set[str]:
    return set(dict(gathered.occurrences()[0].parameters).get(name, "").split(" && "))


def _command_occurrences(command: str, entry: Worked) -> list[BuiltinFact]:
    """The command's fact, once per session it worked in, citing that session's turns."""
    fact = exit_fact(command, entry, f"command:{command}")
    return [
        replace(fact, turn_keys=tuple(dict.fromkeys(entry.turns[session])), quotes=quotes)
        for session in entry.sessions
        for quotes in [tuple(q for q in fact.quotes if q.turn_key in entry.turns[session])]
    ]


def _session_of(fact: BuiltinFact) -> str:
    return fact.sessions[0] if fact.sessions else ""


def place_facts(
    memories: Sequence[Sequence[BuiltinFact]], task_of_turn: Mapping[str, str]
) -> dict[str, list[BuiltinFact]]:
    """Each memory given to the first task that holds one of its occurrences' turns and
    still has room."""
    placed: dict[str, list[BuiltinFact]] = {}
    for occurrences in memories:
        _place(placed, occurrences, task_of_turn)
    return placed


_NAMED = r"(`[^`]+`|[\w./:@-]+(?: [\w./:@-]+){0,3}?)"
_FORBIDDING = (
    re.compile(
        rf"(?i)\binstead of\s+{_NAMED}"
        r"(?=[,.;!]|\s+(?:from|in|for|when|because|since|as)\b|$)"
    ),
    re.compile(
        r"(?i)(?:^|,\s*)(?:never|not|don'?t use|do not use|never use|never run|don'?t run)"
        r"\s+(?:bare\s+|plain\s+)?(`[^`]+`|[\w./:@-]+)(?=[,.;!]|$)"
    ),
)


def forbidden_commands(rules: Iterable[str]) -> set[str]:
    """The commands (or bare tools) that stated rules forbid: what follows "instead of",
    "never", ", not"."""
    found: set[str] = set()
    for rule in rules:
        for pattern in _FORBIDDING:
            for match in pattern.finditer(rule):
                named = match.group(1).strip("`").strip().rstrip(".,;:!")
                if named:
                    found.add(shell.normal_command(named) or named)
    return found


def _forbidden(command: str, forbidden: set[str]) -> bool:
    """Whether a rule forbids this command: named as it is, or its program by itself."""
    steps = [step.strip() for step in command.split("&&") if step.strip()]
    return any(step in forbidden or step.split(maxsplit=1)[0] in forbidden for step in steps)


def _fresh(facts: Iterable[BuiltinFact], seen: set[str]) -> list[BuiltinFact]:
    fresh = []
    for fact in facts:
        if fact.key not in seen:
            seen.add(fact.key)
            fresh.append(fact)
    return fresh


def _place(
    placed: dict[str, list[BuiltinFact]],
    occurrences: Sequence[BuiltinFact],
    task_of_turn: Mapping[str, str],
) -> None:
    """Give the fact to the first task holding an occurrence's turns that still has room."""
    for fact in occurrences:
        turns = fact.turn_keys
        task = next((task_of_turn[t] for t in reversed(turns) if t in task_of_turn), None)
        if task is None or len(placed.get(task, [])) >= MAX_CANDIDATES_PER_BATCH:
            continue
        cited = tuple(t for t in turns if task_of_turn.get(t) == task)
        quotes = tuple(q for q in fact.quotes if q.turn_key in cited)
        placed.setdefault(task, []).append(replace(fact, turn_keys=cited, quotes=quotes))
        return


def memory_keys(text: str) -> set[str]:
    """The keys an existing memory's text holds, so the same memory is not proposed twice."""
    keys = {rule_key(text)}
    named = language_named(text)
    if named:
        keys.add(f"rule:language:{named}")
    conduct = conduct_key(text)
    if conduct:
        keys.add(conduct)
    commands = _BACKTICKED.findall(text)
    if text.startswith(TRAP_PREFIX) and len(commands) >= 2:
        keys.add(f"fix:{commands[0]}\0{commands[-1]}")
    elif commands and (text.startswith("`") or "succeeded (exit 0)" in text):
        parts = [shell.normal_command(part) for part in commands[0].split(" && ")]
        if all(parts):
            keys.add(f"command:{' && '.join(p for p in parts if p)}")
    return keys
