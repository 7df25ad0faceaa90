"""Commands that worked, gathered over a window: one entry per command a teammate would run.

A command counts where its own run was seen to work (`runs.Run.worked`), in each session
and by each person it worked for, under its normal form (`command_line.forms`): a run
narrowed to a file or a test id counts toward its general command, and a command only ever
run narrowed, in one session, is a one-off that is not proposed. A repository script run
with different options is one command. What a session wrote itself before running it, and
what a template prompt told the agent to run, are not the team's commands; a script the
session wrote and then staged with `git add` is. Project commands chained with `&&` that all
worked are a command of their own too (`mise run fmt && mise run lint`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from git_memory.command_line.line import Step, in_project, located
from git_memory.command_line.reports import Outcome
from git_memory.command_line.words import SOURCE_FILE
from git_memory.extract.builtin import shell
from git_memory.extract.builtin.renderers import (
    RENDERER_COMMAND_EXIT,
    BuiltinFact,
    Quote,
    bare_python,
    render_command_exit,
    result_line,
)
from git_memory.extract.builtin.runs import Run
from git_memory.extract.builtin.wrapped import a_command_template
from git_memory.sessions.origin import typed_origin


@dataclass
class Worked:
    """A command that succeeded: its kind, the sessions and the turns it succeeded in."""

    kind: str
    sessions: list[str] = field(default_factory=list)
    people: set[str] = field(default_factory=set)
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
    # Project commands chained with `&&`: a habit only when several sessions show it.
    chain: bool = False
    # Where it ran, relative to the project's root ("" the root): `cd web && npm test`.
    directory: str = ""
    # How many runs worked, in all its sessions.
    times: int = 0

    @property
    def shown(self) -> bool:
        """Worth a memory: run as it is once, or narrowed runs in several sessions; a chain of
        commands in several sessions (once, it is that task's way); a syntax check run again
        and again (once, it checked the file just edited)."""
        if self.chain:
            return len(self.sessions) > 1
        if self.kind == "syntax":
            return self.times > 1 or len(self.sessions) > 1
        return self.full or len(self.sessions) > 1


def gather_worked(
    worked: dict[str, Worked],
    session_key: str,
    person: str,
    runs: Sequence[Run],
    records: Sequence[Any],
    *,
    program: bool,
) -> int:
    """Count into `worked` the commands one session's runs were seen to work; how many runs
    worked."""
    written: set[str] = set()
    # A template's step stays the template's when the person asks for the same work again
    # in a later turn ("do the checklist again"): a slash-command template or a program's
    # prompt counts for the whole session; any other prompt not typed (a pasted log that
    # shows the script run) only for its own turn.
    prompts = _template_prompts(records, program=program)
    templates = "\n".join(p for p in prompts.values() if program or a_command_template(p))
    kept = _staged(runs)
    for run in runs:
        written.update(p.removeprefix("./") for p in run.paths if not _kept(p, kept))
        for step in run.worked_steps:
            segment = step.command
            own = prompts.get(run.turn_key, "")
            told = _told_to_run(segment, templates) or _told_to_run(segment, own)
            if _written_here(segment, written) or told:
                continue
            directory = step.directory or ""
            entry = worked.setdefault(
                located(segment.normal, directory),
                Worked(segment.kind or "", script=shell.script_path(segment), directory=directory),
            )
            entry.full = entry.full or not segment.narrowed
            entry.times += 1
            if session_key not in entry.sessions:
                entry.sessions.append(session_key)
            entry.people.add(person)
            entry.turns.setdefault(session_key, []).append(run.turn_key)
            entry.env = _common_env(entry.env, segment.env)
            _observe(entry, session_key, run)
        for chain in chains(run):
            directory = chain[0].directory or ""
            key = located(" && ".join(s.command.normal for s in chain), directory)
            entry = worked.setdefault(key, Worked("check", chain=True, directory=directory))
            entry.full = entry.full or not any(s.command.narrowed for s in chain)
            if session_key not in entry.sessions:
                entry.sessions.append(session_key)
            entry.people.add(person)
            entry.turns.setdefault(session_key, []).append(run.turn_key)
            entry.env = ()
            _observe(entry, session_key, run)
    return sum(1 for run in runs if run.worked)


def chains(run: Run) -> list[list[Step]]:
    """Project commands a line runs one after the other with `&&` in one directory, each seen
    to work (`mise run fmt && mise run lint`): the habit is the chain, not only its parts."""
    found: list[list[Step]] = []
    current: list[Step] = []
    for step, outcome in zip(run.steps, run.outcomes, strict=True):
        project = step.command.kind is not None and in_project(step)
        if project and outcome is Outcome.WORKED:
            if current and step.directory != current[0].directory:  # `… && cd web && …`
                found += [current] if len(current) > 1 else []
                current = []
            current.append(step)
        elif step.command.words[:1] != ("cd",):
            current = []
        if step.joiner != "&&" or not (project or step.command.words[:1] == ("cd",)):
            found += [current] if len(current) > 1 else []
            current = []
    return found


def _staged(runs: Sequence[Run]) -> set[str]:
    """What the session handed to `git add` (paths; "." for everything): a script it wrote
    and staged is the project's from then on."""
    staged: set[str] = set()
    for run in runs:
        if run.state != "completed" or not run.command:
            continue
        for segment in shell.segments(run.command):
            if tuple(segment.words[:2]) == ("git", "add"):
                arguments = segment.words[2:]
                if {"-A", "--all", "."} & set(arguments):
                    staged.add(".")
                staged |= {w.removeprefix("./") for w in arguments if not w.startswith("-")}
    return staged


def _kept(path: str, staged: set[str]) -> bool:
    path = path.removeprefix("./")
    return "." in staged or any(path == s or path.endswith("/" + s) for s in staged)


def _written_here(segment: shell.Segment, written: set[str]) -> bool:
    """A script the session itself wrote before running it (and did not stage for a commit)
    is a one-off, not the project's."""
    path = shell.script_path(segment)
    return path is not None and any(w == path or w.endswith("/" + path) for w in written)


# A word naming a path (`src/App/App.csproj`, `crates/a/Cargo.toml`) or a project file.
# A Python interpreter by its bare name or an environment's (`.venv/bin/python`,
# `venv\Scripts\python.exe`).
_PYTHON = re.compile(
    r"(?:(?!\.\.|[/\\~]|[A-Za-z]:)\S*(?:venv|env)[/\\](?:bin|Scripts)[/\\])?"
    r"(?:python(?:\d+(?:\.\d+)?)?|py)(?:\.exe)?"
)
_PATH_WORD = re.compile(
    r"^(?!-)(?:[\w.-]*[/\\][\w./\\-]*|[\w.-]+\.(?:csproj|fsproj|vbproj|vcxproj|sln))$"
)


def _form(command: str, entry: Worked) -> str | None:
    """What several commands share when they are one command run on different targets: the
    repository script they run, or their words with each path a placeholder."""
    if entry.script is not None:
        return f"script:{located(entry.script, entry.directory)}"
    here = located("", entry.directory)  # where it ran is part of the command, not a target
    words = command.removeprefix(here).split(" ")
    # A module run by the bare interpreter or the project environment's (`python -m ruff
    # check .`, `.venv/Scripts/python.exe -m ruff check .`): one command of that module.
    interpreted = len(words) > 2 and words[1] == "-m" and bool(_PYTHON.fullmatch(words[0]))
    if interpreted:
        words[0] = "<python>"
    if entry.chain or not (interpreted or any(_target(w) for w in words)):
        return None
    form: list[str] = [here] if here else []
    for word in words:  # a list of files is one target: `py_compile a.py b.py src/*.py`
        if not _target(word):
            form.append(word)
        elif form[-1:] != ["<path>"]:
            form.append("<path>")
    return " ".join(form)


def _target(word: str) -> bool:
    return bool(_PATH_WORD.match(word) or (SOURCE_FILE.search(word) and not word.startswith("-")))


def one_per_script(worked: dict[str, Worked]) -> dict[str, Worked]:
    """A repository script run with different options (`check-prerequisites.sh --json`,
    `… --json --paths-only`), or a command run on different paths or files (`dotnet build
    src/A/A.csproj …`, `… src/B/B.csproj …`; `python -m py_compile demo.py src/*.py`, `…
    demo.py evaluate.py src/*.py`), is one command: the form run in the most
    sessions (on a tie the script's shortest, the first run on paths), counting the sessions
    of all of them."""
    by_script: dict[str, list[str]] = {}
    for command, entry in worked.items():
        form = _form(command, entry)
        if form is not None:
            by_script.setdefault(form, []).append(command)
    merged = dict(worked)
    for form, commands in by_script.items():
        if len(commands) < 2:
            continue
        chosen = min(commands, key=lambda c: _rank(worked, c))
        if "<python>" in form:
            # the bare interpreter's form runs wherever the environment is active; the
            # environment's path is one machine's layout (`.venv/Scripts/python.exe`)
            bare = [c for c in commands if bare_python(c.rsplit(" && ", 1)[-1].split(" ", 1)[0])]
            chosen = min(bare, key=lambda c: _rank(worked, c)) if bare else chosen
        entry = merged[chosen]
        for command in commands:
            if command == chosen:
                continue
            other = merged.pop(command)
            entry.full = entry.full or other.full
            entry.times += other.times
            entry.people |= other.people
            for session in other.sessions:
                if session not in entry.sessions:
                    entry.sessions.append(session)
                entry.turns.setdefault(session, []).extend(other.turns.get(session, []))
                for quotes, more in ((entry.runs, other.runs), (entry.results, other.results)):
                    if session in more:
                        quotes.setdefault(session, more[session])
    return merged


def _rank(worked: dict[str, Worked], command: str) -> tuple[int, int, str]:
    """Which of several forms speaks for them: the most sessions, then a script's fewest
    options, or on paths the one run first."""
    entry = worked[command]
    tie = len(command) if entry.script is not None else list(worked).index(command)
    return -len(entry.sessions), tie, command


def _template_prompts(records: Sequence[Any], *, program: bool) -> dict[str, str]:
    """The prompts (by turn key) a person did not type: a slash-command or skill template,
    a pasted document, a program's prompt."""
    return {
        record.turn_key: record.user_text
        for record in records
        if record.user_text and typed_origin(record.user_text, program) != "person"
    }


def _told_to_run(segment: shell.Segment, prompt: str) -> bool:
    """A script a template prompt names ("Run `.specify/scripts/bash/setup-plan.sh --json`")
    ran because the template said so: the template's step, not the team's command; also
    when run from a folder above the one the template speaks from
    (`./ship/.specify/scripts/bash/setup-plan.sh`): the path ends with the one it names (two
    folders at least, not a script's bare name)."""
    path = shell.script_path(segment)
    if path is None:
        return False
    parts = path.split("/")
    tails = ("/".join(parts[at:]) for at in range(max(len(parts) - 2, 1)))
    return any(_names_whole(prompt, tail) for tail in tails)


# What may open a path a prompt names: nothing of a longer name or path before it, `./`, or
# the root of the repository as a variable opening the path (`$REPO_ROOT/`, `{REPO_ROOT}/`,
# `${ROOT}/`; not a folder inside it: `apps/$APP/`).
_OPENS_A_PATH = re.compile(
    r"(?:^|[^\w.\-/\\$}])(?:\./)?$|(?:^|[^\w.\-/\\$}])(?:\$\{?\w+\}?|\{\w+\})/$"
)


def _names_whole(prompt: str, path: str) -> bool:
    """Whether the prompt names `path` as a whole path (`apps/web/x.sh` is not in
    `apps/mobile-web/x.sh`), a sentence's full stop after it or not."""
    for found in re.finditer(re.escape(path) + r"(?![\w-]|\.\w)", prompt):
        if _OPENS_A_PATH.search(prompt[max(0, found.start() - 40) : found.start()]):
            return True
    return False


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


def _observe(entry: Worked, session_key: str, run: Run) -> None:
    """Keep the first run of a session as it was typed and the line that shows its result."""
    if session_key in entry.runs or not run.command:
        return
    entry.runs[session_key] = Quote(run.turn_key, run.command)
    if run.shown is not None:  # a server a later call showed up: that call's line
        entry.turns[session_key].append(run.shown[0])
        entry.results[session_key] = Quote(*run.shown)
        return
    line = result_line(run.output)
    if line:
        entry.results[session_key] = Quote(run.turn_key, line)


def exit_fact(command: str, entry: Worked, key: str) -> BuiltinFact:
    count = len(entry.sessions)
    here = located("", entry.directory)  # `cd web && `: the variables go after it
    command = here + " ".join([*(entry.env or ()), command.removeprefix(here)])
    text = render_command_exit(command, entry.kind, count)
    parameters = (("command", command), ("kind", entry.kind), ("sessions", str(count)))
    quotes = tuple(
        quote
        for session in entry.sessions
        for quote in (entry.runs.get(session), entry.results.get(session))
        if quote is not None
    )
    return BuiltinFact(
        RENDERER_COMMAND_EXIT,
        "typed-fact",
        text,
        text,
        (),
        key,
        parameters,
        quotes,
        sessions=tuple(entry.sessions),
        people=tuple(sorted(entry.people)),
    )
