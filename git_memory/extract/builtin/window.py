"""The builtin extraction of a whole window: every memory once, placed in one task.

Facts are found per session (a trap needs its session's order) and then merged across the
window by their key: a command that worked in four sessions is one memory whose text counts
the sessions, a rule stated twice is one rule. A command only ever run narrowed to a file
or a test id, in one session, is a one-off and not proposed. Keys already held by approved
memory or by an earlier candidate are not proposed again. Each fact is then given to one
extraction task that holds its turns, because a candidate can only cite the evidence of its
own task (at most `MAX_CANDIDATES_PER_BATCH` per task; a command that worked in several
sessions can go to any of them). A command a stated rule forbids ("use `cargo nextest run`
instead of `cargo test`", "always pnpm, never npm") is not proposed as working. Each fact
carries the words that back it: the command as run and its observed result line, the
person's sentence for a rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from git_memory.contracts.extraction import MAX_CANDIDATES_PER_BATCH
from git_memory.extract.builtin import shell
from git_memory.extract.builtin.renderers import (
    RENDERER_COMMAND_EXIT,
    RENDERER_USER_RULE,
    TRAP_PREFIX,
    BuiltinFact,
    Quote,
    render_command_exit,
    result_line,
)
from git_memory.extract.builtin.rules import rule_facts, rule_key
from git_memory.extract.builtin.runs import Run, session_runs
from git_memory.extract.builtin.traps import trap_facts
from git_memory.sessions.origin import typed_origin

_BACKTICKED = re.compile(r"`([^`]+)`")


@dataclass
class _Worked:
    """A command that succeeded: its kind, the sessions and the turns it succeeded in."""

    kind: str
    sessions: list[str] = field(default_factory=list)
    turns: dict[str, list[str]] = field(default_factory=dict)
    full: bool = False  # it also ran as it is, not only narrowed to a file or test id
    # Per session: the command line as run and its observed result line (the first run).
    runs: dict[str, Quote] = field(default_factory=dict)
    results: dict[str, Quote] = field(default_factory=dict)
    # The variable assignments every successful run carried (`PYTHONPATH=. pytest`): what
    # made it work is part of the command a teammate should run (None: no run seen yet).
    env: tuple[str, ...] | None = None
    # The repository script it runs, when it runs one.
    script: str | None = None

    @property
    def shown(self) -> bool:
        """Worth a memory: run as it is once, or narrowed runs in several sessions."""
        return self.full or len(self.sessions) > 1


def plan_window(
    sessions: Sequence[tuple[str, Sequence[Any]]],
    task_of_turn: Mapping[str, str],
    known: set[str],
    scrub: Callable[[str], str] = str,
    *,
    programs: Collection[str] = (),
    tally: dict[str, int] | None = None,
) -> dict[str, list[BuiltinFact]]:
    """The facts each task proposes: `sessions` are (session key, ordered turn records);
    `programs` are the sessions a program drove (no rules come from their prompts).
    `tally`, when given, receives how many facts each session showed before what is
    already known was left out."""
    traps: list[BuiltinFact] = []
    rules: list[BuiltinFact] = []
    worked: dict[str, _Worked] = {}
    for session_key, records in sessions:
        runs = list(session_runs(records, scrub))
        found = trap_facts(runs) + rule_facts(records, scrub, program=session_key in programs)
        traps += [f for f in found if f.renderer != RENDERER_USER_RULE]
        rules += [f for f in found if f.renderer == RENDERER_USER_RULE]
        if tally is not None:
            tally[session_key] = len(found) + sum(1 for run in runs if run.worked)
        written: set[str] = set()
        told = _template_prompts(records, program=session_key in programs)
        for run in runs:
            written.update(p.removeprefix("./") for p in run.paths)
            for segment in run.worked:
                if _written_here(segment, written) or _told_to_run(segment, told.get(run.turn_key)):
                    continue
                entry = worked.setdefault(
                    segment.normal, _Worked(segment.kind or "", script=shell.script_path(segment))
                )
                entry.full = entry.full or not segment.narrowed
                if session_key not in entry.sessions:
                    entry.sessions.append(session_key)
                entry.turns.setdefault(session_key, []).append(run.turn_key)
                entry.env = _common_env(entry.env, segment.env)
                _observe(entry, session_key, run)
    worked = _one_per_script(worked)
    placed: dict[str, list[BuiltinFact]] = {}
    seen = set(known)
    forbidden = forbidden_commands(fact.content for fact in rules)
    # A trap whose fix a stated rule forbids would hand a teammate the forbidden command.
    traps = [t for t in traps if not _forbidden(dict(t.parameters).get("fix", ""), forbidden)]
    traps = _one_per_failure(traps)
    for fact in _fresh(traps, seen) + _fresh(rules, seen):
        _place(placed, fact, [fact.turn_keys], task_of_turn)
    for command, entry in worked.items():
        key = f"command:{command}"
        if key in seen or not entry.shown or _forbidden(command, forbidden):
            continue
        seen.add(key)
        fact = _exit_fact(command, entry, key)
        options = [tuple(dict.fromkeys(entry.turns[s])) for s in entry.sessions]
        _place(placed, fact, options, task_of_turn)
    return placed


def _written_here(segment: shell.Segment, written: set[str]) -> bool:
    """A script the session itself wrote before running it is a one-off, not the project's."""
    path = shell.script_path(segment)
    return path is not None and any(w == path or w.endswith("/" + path) for w in written)


def _one_per_script(worked: dict[str, _Worked]) -> dict[str, _Worked]:
    """A repository script run with different options (`check-prerequisites.sh --json`,
    `… --json --paths-only`) is one command: the form run in the most sessions (the shortest
    on a tie), counting the sessions of all of them."""
    by_script: dict[str, list[str]] = {}
    for command, entry in worked.items():
        if entry.script is not None:
            by_script.setdefault(entry.script, []).append(command)
    merged = dict(worked)
    for commands in by_script.values():
        if len(commands) < 2:
            continue
        chosen = min(commands, key=lambda c: (-len(worked[c].sessions), len(c), c))
        entry = merged[chosen]
        for command in commands:
            if command == chosen:
                continue
            other = merged.pop(command)
            entry.full = entry.full or other.full
            for session in other.sessions:
                if session not in entry.sessions:
                    entry.sessions.append(session)
                entry.turns.setdefault(session, []).extend(other.turns.get(session, []))
                for quotes, more in ((entry.runs, other.runs), (entry.results, other.results)):
                    if session in more:
                        quotes.setdefault(session, more[session])
    return merged


def _one_per_failure(traps: Sequence[BuiltinFact]) -> list[BuiltinFact]:
    """One trap per failing command and error: the fix that worked first (a session that
    later found a shorter way to the same success does not make a second trap)."""
    kept: dict[tuple[str, str], BuiltinFact] = {}
    for trap in traps:
        parameters = dict(trap.parameters)
        kept.setdefault((parameters.get("failing", ""), parameters.get("error", "")), trap)
    return list(kept.values())


def _template_prompts(records: Sequence[Any], *, program: bool) -> dict[str, str]:
    """The prompts (by turn key) a person did not type: a slash-command or skill template,
    a pasted document, a program's prompt."""
    return {
        record.turn_key: record.user_text
        for record in records
        if record.user_text and typed_origin(record.user_text, program) != "person"
    }


def _told_to_run(segment: shell.Segment, prompt: str | None) -> bool:
    """A script the turn's template prompt names ("Run `.specify/scripts/bash/setup-plan.sh
    --json`") ran because the template said so: the template's step, not the team's command."""
    path = shell.script_path(segment)
    return prompt is not None and path is not None and path in prompt


# Variables that only change how a run looks or which machine it ran on, not whether it works.
_COSMETIC_ENV = frozenset(
    [
        *("CI", "FORCE_COLOR", "NO_COLOR", "TERM", "PAGER", "GIT_PAGER", "COLUMNS", "LINES"),
        *("LANG", "LC_ALL", "LC_CTYPE", "TZ", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"),
        "PYTHONIOENCODING",
    ]
)
_PRIVATE_ENV = re.compile(r"(?i)token|secret|passw|key|auth|credential|cookie|session")


def _common_env(kept: tuple[str, ...] | None, env: Sequence[str]) -> tuple[str, ...]:
    """The assignments of every successful run so far that belong to the project's command:
    not cosmetic, not this machine's (a path outside the repository, a variable), no secret."""
    own = tuple(a for a in env if _project_env(a))
    return own if kept is None else tuple(a for a in kept if a in own)


def _project_env(assignment: str) -> bool:
    name, _, value = assignment.partition("=")
    return (
        name not in _COSMETIC_ENV
        and not _PRIVATE_ENV.search(name)
        and not shell.outside(value)
        and "$" not in value
        and "://" not in value
    )


def _observe(entry: _Worked, session_key: str, run: Run) -> None:
    """Keep the first run of a session as it was typed and the line that shows its result."""
    if session_key in entry.runs or not run.command:
        return
    entry.runs[session_key] = Quote(run.turn_key, run.command)
    line = result_line(run.output)
    if line:
        entry.results[session_key] = Quote(run.turn_key, line)


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


def _exit_fact(command: str, entry: _Worked, key: str) -> BuiltinFact:
    count = len(entry.sessions)
    command = " ".join([*(entry.env or ()), command])
    text = render_command_exit(command, entry.kind, count)
    parameters = (("command", command), ("kind", entry.kind), ("sessions", str(count)))
    quotes = tuple(
        quote
        for session in entry.sessions
        for quote in (entry.runs.get(session), entry.results.get(session))
        if quote is not None
    )
    return BuiltinFact(RENDERER_COMMAND_EXIT, "typed-fact", text, text, (), key, parameters, quotes)


def _place(
    placed: dict[str, list[BuiltinFact]],
    fact: BuiltinFact,
    options: Sequence[Sequence[str]],
    task_of_turn: Mapping[str, str],
) -> None:
    """Give the fact to the first task holding its turns that still has room."""
    for turns in options:
        task = next((task_of_turn[t] for t in reversed(turns) if t in task_of_turn), None)
        if task is None or len(placed.get(task, [])) >= MAX_CANDIDATES_PER_BATCH:
            continue
        cited = tuple(t for t in turns if task_of_turn.get(t) == task)
        quotes = tuple(q for q in fact.quotes if q.turn_key in cited)
        placed.setdefault(task, []).append(
            BuiltinFact(
                fact.renderer,
                fact.claim_support,
                fact.content,
                fact.statement,
                cited,
                fact.key,
                fact.parameters,
                quotes,
            )
        )
        return


def memory_keys(text: str) -> set[str]:
    """The keys an existing memory's text holds, so the same memory is not proposed twice."""
    keys = {rule_key(text)}
    commands = _BACKTICKED.findall(text)
    if text.startswith(TRAP_PREFIX) and len(commands) >= 2:
        keys.add(f"fix:{commands[0]}\0{commands[-1]}")
    elif commands and (text.startswith("`") or "succeeded (exit 0)" in text):
        normal = shell.normal_command(commands[0])
        if normal:
            keys.add(f"command:{normal}")
    return keys
