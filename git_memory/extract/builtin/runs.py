"""A session's tool calls in order, as the command facts read them (common turn model only).

Each shell call becomes a `Run` holding its command line as the shell reads it and the
observed outcome of each of its steps (`observed`): a run counts as worked or failed only
where the transcript shows it, so a status a pipe hid, a background launch or the agent's
timeout leaves it unknown. A set-up step the person says they ran themselves comes first in
its turn, as a shell call that worked (`told.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from git_memory.command_line.line import Command, Step, in_project, located, parse
from git_memory.command_line.program import outside
from git_memory.extract.builtin import observed, served, shell
from git_memory.extract.builtin.observed import Outcome
from git_memory.extract.builtin.told import TOLD, told_steps
from git_memory.sessions.origin import typed_origin
from git_memory.sessions.query import TurnRecord
from git_memory.sessions.turns import ToolCall, call_paths

_STATE_OF = {Outcome.WORKED: "completed", Outcome.FAILED: "failed", Outcome.UNKNOWN: "unknown"}
# Inputs that send a shell call to the background (Claude Code, Gemini CLI and Qwen Code,
# Copilot CLI).
_BACKGROUND = (("run_in_background", True), ("is_background", True), ("mode", "async"))


@dataclass(frozen=True)
class Run:
    """One tool call of a session: a shell command (parsed, with the observed outcome of each
    step) or a file edit."""

    turn_key: str
    command: str | None
    outcome: Outcome
    output: str
    main: Command | None
    setups: tuple[Command, ...] = field(default=())
    edit: bool = False
    steps: tuple[Step, ...] = field(default=())
    outcomes: tuple[Outcome, ...] = field(default=())
    # The files an edit wrote, as the call named them.
    paths: tuple[str, ...] = field(default=())
    # Where the command line started, relative to the project's root (`line.parse`).
    start: str = ""
    # A server this run started, shown up by a later call (`served.py`): that call's turn
    # and the line that showed it.
    shown: tuple[str, str] | None = None
    # A step the person said they ran (`told.py`): their words are its evidence.
    told: bool = False

    @property
    def state(self) -> str:
        """The run's observed outcome as a result state: `completed` only when it was seen to
        work, `failed` only when seen to fail, else `unknown`."""
        return _STATE_OF[self.outcome]

    @property
    def worked(self) -> list[Command]:
        """The project segments this run was seen to run successfully."""
        return [step.command for step in self.worked_steps]

    @property
    def worked_steps(self) -> list[Step]:
        """The steps of project commands this run was seen to run successfully in the project
        (not after a `cd` out of it), each with the folder it ran in."""
        return [
            step
            for step, outcome in zip(self.steps, self.outcomes, strict=True)
            if outcome is Outcome.WORKED and step.command.kind is not None and in_project(step)
        ]

    @property
    def key(self) -> str | None:
        """The main project command as a teammate runs it from the project's root (its normal
        form, after `cd web &&` when it ran in a folder), when there is one and it ran in the
        project."""
        step = self._step_of(self.main)
        if self.main is None or (step is not None and not in_project(step)):
            return None
        return located(self.main.normal, self.where)

    @property
    def where(self) -> str:
        """The project folder the main project command ran in ("" the root, or not known)."""
        return self.folder(self.main)

    def folder(self, command: Command | None) -> str:
        """The project folder one of the run's commands ran in ("" the root, or not known)."""
        step = self._step_of(command)
        if step is None or step.directory is None or not in_project(step):
            return ""
        return step.directory

    def setup_folders(self) -> list[str]:
        """The project folder each of `setups` ran in, in order: by position, as the same set-up
        command may run in two folders (`cd api && npm install && cd ../web && npm install`)."""
        ran = [step for step in self.steps if step.command.setup][: len(self.setups)]
        return [
            "" if step.directory is None or not in_project(step) else step.directory for step in ran
        ]

    def _step_of(self, command: Command | None) -> Step | None:
        return next((s for s in self.steps if s.command is command), None)


def session_runs(records: Iterable[Any], scrub: Callable[[str], str] = str) -> Iterator[Run]:
    """Every shell call and edit of the records, in order; paths scrubbed from commands.

    A Codex command still running when its call returned ("Process running with session ID
    5", "Script running with cell ID 7") is read again with what its later `write_stdin` or
    `wait` call brought back, so its outcome is the one it ended with; so is a Copilot CLI
    command ("<command with shellId: 5 is still running …>") with its `read_powershell` or
    `read_bash`."""
    found: list[Run] = []
    running: dict[str, tuple[int, ToolCall]] = {}
    for record in records:
        for call in (*_told(record), *record.tool_calls):
            resumed = _resumes(call, running)
            if resumed is not None:
                index, first = resumed
                found[index] = _continued(found[index], first, call, scrub)
                if _still_running(call):
                    running[str(call.input[_HANDLES[call.name.lower()]])] = resumed
                continue
            command = shell.command_of(call)
            if command is None or shell.is_edit(call):
                if shell.is_edit(call):
                    outcome = observed.of_state(call.state)
                    paths = tuple(scrub(p) for p in call_paths(call))
                    found.append(
                        Run(record.turn_key, None, outcome, "", None, edit=True, paths=paths)
                    )
                continue
            handle = _handle(call.output or "")
            if handle is not None:
                running[handle] = (len(found), call)
            start = _start(getattr(record, "cwd", None), call, scrub)
            output = scrub(call.output or "")
            run = _run(record.turn_key, call, scrub(command), output, start)
            found.append(replace(run, told=True) if call.call_id == TOLD else run)
    yield from _shown_up(found)


def _told(turn: TurnRecord) -> list[ToolCall]:
    """The set-up step the person's message says they ran themselves (`told.py`)."""
    text = turn.user_text or ""
    return told_steps(text) if text and typed_origin(text) == "person" else []


def _shown_up(runs: list[Run]) -> list[Run]:
    """The runs, each server left running taking the result a later call showed
    (`served.py`): worked, with that call's line as evidence."""
    found = list(runs)
    # the ports the session's servers listen on: a request to one is about that server
    ports = {i: served.listening(run) for i, run in enumerate(found)}
    for index, run in enumerate(found):
        if not served.waiting(run):
            continue
        others = {port for i, told in ports.items() if i != index for port in told}
        others |= served.listening(run, besides=run.main)
        for later in [run, *found[index + 1 : index + 1 + served.CHECK_WINDOW]]:
            if later is not run and served.starts_a_server(later):
                break  # what follows is about that server
            line = served.showing(run, later, others)
            if line is None:
                break  # it failed
            if line:
                outcomes = tuple(observed.up(run.steps))
                main = next(i for i, step in enumerate(run.steps) if step.command is run.main)
                shown = (later.turn_key, line)
                found[index] = replace(run, outcome=outcomes[main], outcomes=outcomes, shown=shown)
                break
    return found


_RUNNING = re.compile(
    r"(?m)^(?:Process running with session ID|Script running with cell ID) (\w+)"
    r"|Command running in background with ID: ([\w-]+)"
    r"|^<command with shellId: (\w+) is still running\b"  # Copilot CLI
)
# Claude Code's `BashOutput` / `TaskOutput` on a background shell that has ended.
_ENDED = re.compile(r"<status>(?:completed|failed)</status>\s*<exit_code>(-?\d+)</exit_code>")
# The inputs that name what a continuation call reads on.
_HANDLES = {
    "write_stdin": "session_id",
    "wait": "cell_id",
    "bashoutput": "bash_id",
    "taskoutput": "task_id",
    "read_powershell": "shellId",
    "read_bash": "shellId",
}


def _handle(output: str) -> str | None:
    """The session or cell id of a command still running when its call returned."""
    found = _RUNNING.search(output)
    return next(group for group in found.groups() if group) if found else None


def _resumes(
    call: ToolCall, running: dict[str, tuple[int, ToolCall]]
) -> tuple[int, ToolCall] | None:
    """The running command a `write_stdin` (by `session_id`), `wait` (by `cell_id`),
    `BashOutput` or `TaskOutput` call reads on, taken off the running ones."""
    key = _HANDLES.get(call.name.lower())
    if key is None or not isinstance(call.input, dict) or call.input.get(key) is None:
        return None
    return running.pop(str(call.input[key]), None)


def _still_running(call: ToolCall) -> bool:
    """A continuation call that returned before the command ended."""
    if call.name.lower() in ("bashoutput", "taskoutput"):
        return _ENDED.search(call.output or "") is None
    return _handle(call.output or "") is not None


# What a command still running has printed is kept to its last part: a server polled many
# times does not pile up its logs (`TaskOutput` returns all of it again at each poll), and
# how a command ends is at the end.
MAX_KEPT_OUTPUT = 65536


def _continued(run: Run, first: ToolCall, later: ToolCall, scrub: Callable[[str], str]) -> Run:
    """The run read again with its later output and the state that output ended in."""
    output = _RUNNING.sub("", run.output) + "\n" + scrub(later.output or "")
    output = output[-MAX_KEPT_OUTPUT:]
    state, payload = later.state, first.input
    if later.name.lower() in ("bashoutput", "taskoutput"):
        ended = _ENDED.search(later.output or "")
        if ended is None:  # still running: only a server saying it is up tells something
            return _run(run.turn_key, first, run.command or "", output, run.start, running=True)
        state = "completed" if int(ended.group(1)) == 0 else "failed"
        payload = {k: v for k, v in payload.items() if k != "run_in_background"}
    call = ToolCall(first.call_id, first.name, payload, output, state)
    return _run(run.turn_key, call, run.command or "", output, run.start)


def _start(cwd: str | None, call: ToolCall, scrub: Callable[[str], str]) -> str:
    """Where a shell call ran, relative to the project's root ("" the root, or where that
    cannot be told): the session's folder (a session run in `web/` of the worktree), moved
    by the call's own working directory (`shell.call_start`); scrubbing makes a path under
    the root relative to it and leaves one outside absolute."""
    base = scrub(cwd) if cwd else ""
    if not base or outside(base):  # where the session ran is not known: nor is where a call did
        return shell.call_start("", call, lambda _path: ".")
    base = "" if base == "." else base
    return shell.call_start(base, call, lambda path: base or "." if path == cwd else scrub(path))


def _run(
    turn_key: str,
    call: ToolCall,
    command: str,
    output: str,
    start: str = "",
    *,
    running: bool = False,
) -> Run:
    """The run of one shell call (`running`: it had not ended when `output` was printed)."""
    line = parse(command, start)
    status = observed.of_state(call.state)
    if status is Outcome.UNKNOWN and _one_code_mode_command(call.input):
        status = observed.exit_field(output)  # a code-mode cell that printed the exec result
    if running or _backgrounded(call.input):
        # What it printed so far is no result; only a server saying it is up tells one.
        outcomes = observed.started(line, observed.own_output(output))
    else:
        outcomes = observed.segment_outcomes(line, status, output)
    found = list(line.commands)
    index = line.main_index
    if index is None:
        setups = [s for s in found if s.setup]
        subject = max((i for i, s in enumerate(found) if s.setup), default=len(found) - 1)
    else:
        setups, subject = [s for s in found[:index] if s.setup], index
    return Run(
        turn_key,
        command,
        outcomes[subject] if outcomes else Outcome.UNKNOWN,
        output,
        found[index] if index is not None else None,
        tuple(setups),
        steps=line.steps,
        outcomes=tuple(outcomes),
        start=start,
    )


def _one_code_mode_command(payload: Any) -> bool:
    """A Codex code-mode cell running one command: an `exit_code` it prints is that one's."""
    return isinstance(payload, str) and len(shell.code_mode_commands(payload)) == 1


def _backgrounded(payload: Any) -> bool:
    return isinstance(payload, dict) and any(payload.get(k) == v for k, v in _BACKGROUND)
