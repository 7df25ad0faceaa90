"""Shell calls as the builtin extractor reads them: which tool calls run a command line (every
agent's shape), which edit files, and the questions the extractor asks of a line, answered
by the one command model (`git_memory/command_line/`: structure, kinds, normal forms).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

from git_memory.command_line.line import (
    Command,
    Line,
    Step,
    is_assignment,
    join_directory,
    main_index,
    memory_line,
    parse,
)
from git_memory.command_line.program import outside, program_words, project_script
from git_memory.command_line.reports import Outcome
from git_memory.command_line.words import UNPLAIN_FOLDER
from git_memory.extract.builtin import observed
from git_memory.sessions.turns import ToolCall

# The names the extractor's modules read a simple command and a line by.
Segment = Command
__all__ = [
    "Line",
    "Segment",
    "Step",
    "is_assignment",
    "main_index",
    "outside",
    "parse",
    "program_words",
    "project_script",
]

# Tool names that run a shell command, across the agents' transcript formats.
SHELL_TOOLS = frozenset(
    [
        "bash",
        "exec",
        "exec_command",
        "shell",
        "shell_command",
        "terminal",
        "local_shell",
        "run_shell_command",
        "run_terminal_cmd",
        "run_in_terminal",
        "powershell",
        "run_command",
    ]
)
# The shell tool that runs its line with PowerShell (Copilot CLI on Windows).
POWERSHELL_TOOL = "powershell"
# Tools that change files: a failure followed by an edit was fixed in the code, not the setup.
EDIT_TOOLS = frozenset(
    [
        "edit",
        "multiedit",
        "write",
        "notebookedit",
        "apply_patch",
        "str_replace_based_edit_tool",
        "str_replace_editor",
        "write_file",
        "replace",
        "edit_file",
        "create_file",
    ]
)


def command_of(call: ToolCall) -> str | None:
    """The shell command line of a tool call, or None when it is not a shell call.

    Lines are kept apart (a newline separates commands as `;` does); Codex code mode's
    JavaScript cells give the commands of their `tools.exec_command({cmd: …})` calls."""
    name = call.name.lower()
    if name not in SHELL_TOOLS:
        return None
    payload = call.input
    if isinstance(payload, dict):
        payload = payload.get("command", payload.get("cmd"))
    if isinstance(payload, list) and all(isinstance(part, str) for part in payload):
        if len(payload) == 3 and payload[0].endswith("sh") and payload[1] in ("-c", "-lc"):
            payload = payload[2]
        else:
            payload = shlex.join(payload)
    if name == "exec" and isinstance(payload, str) and "tools." in payload:
        cells = code_mode_commands(payload)
        payload = "\n".join(cells) if cells else None
    if not isinstance(payload, str) or not payload.strip():
        return None
    lines = (" ".join(line.split()) for line in payload.replace("\r\n", "\n").split("\n"))
    kept = [line for line in lines if line]
    if name == POWERSHELL_TOOL:
        # Copilot CLI's Windows shell tool hands PowerShell the line: read by its rules, as
        # `powershell -Command "…"` is (`command_line.syntax_windows`), its lines one script.
        return shlex.join(["powershell", "-Command", "; ".join(kept)])
    return "\n".join(kept)


_CODE_MODE_CALL = re.compile(r"\btools\.exec_command\(\s*\{")
_CMD_KEY = re.compile(r"""(?:^|[{,\s])["']?cmd["']?\s*:\s*(["'`])""")


def code_mode_commands(source: str) -> list[str]:
    """The `cmd` string of each `tools.exec_command({…})` call of a Codex code-mode cell
    (JavaScript); a command built at run time is not known and left out."""
    found: list[str] = []
    for call in _CODE_MODE_CALL.finditer(source):
        key = _CMD_KEY.search(source, call.end() - 1)
        if key is None or source.find("}", call.end(), key.start()) != -1:
            continue
        literal = _js_string(source, key.end() - 1)
        if literal is not None and literal.strip():
            found.append(literal)
    return found


_JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}


def _js_string(source: str, start: int) -> str | None:
    """The value of the JavaScript string literal opening at `start` (None if unclosed or a
    template literal with substitutions)."""
    quote, index, out = source[start], start + 1, []
    while index < len(source):
        char = source[index]
        if char == "\\" and index + 1 < len(source):
            out.append(_JS_ESCAPES.get(source[index + 1], source[index + 1]))
            index += 2
            continue
        if char == quote:
            return "".join(out)
        if quote == "`" and source.startswith("${", index):
            return None
        out.append(char)
        index += 1
    return None


# Where an agent's shell tool was told to run a command: Codex's `workdir` (its older
# `local_shell` action's `working_directory`) and Antigravity's `Cwd` (indexed as `cwd`),
# absolute; Gemini CLI's and Qwen Code's `directory` / `dir_path` (relative to the session's
# folder).
WORKDIR_KEYS = ("workdir", "working_directory", "cwd", "directory", "dir_path")


def call_start(base: str, call: ToolCall, relative: Callable[[str], str]) -> str:
    """Where a shell call ran, relative to the project's root: the session's folder `base`
    ("" the root), moved by the folder the agent told its shell tool to use. `relative`
    makes an absolute path relative to the root (a path outside stays outside: absolute, or
    above the root)."""
    payload = call.input if isinstance(call.input, dict) else {}
    told = next((payload[k] for k in WORKDIR_KEYS if isinstance(payload.get(k), str)), "")
    if not told or UNPLAIN_FOLDER.search(told):
        return base  # no folder, or none a memory could name (`web; rm -rf ~`, `\x1b[8m`)
    if outside(told):
        moved = relative(told)
        return "" if moved == "." else moved
    return join_directory(base, told) or ""


def is_edit(call: ToolCall) -> bool:
    """The call changed files through an editing tool (a Codex code-mode cell may patch, and
    Codex's shell tool runs `apply_patch` with the patch as its argument or heredoc)."""
    name = call.name.lower()
    payload = call.input
    if name == "exec" and isinstance(payload, str):
        return "tools.apply_patch(" in payload
    if name in SHELL_TOOLS:
        command = command_of(call) or ""
        return command.split(maxsplit=1)[:1] in (["apply_patch"], ["applypatch"])
    return name in EDIT_TOOLS


def segments(command: str) -> list[Segment]:
    """The simple commands of a command line, in order (pipeline filters left out)."""
    return list(parse(command).commands)


def script_path(segment: Segment) -> str | None:
    """The repository script a project command runs (`scripts/x.py`), if it runs one."""
    program = segment.program
    if program and project_script(program[0]):
        return program[0].removeprefix("./")
    return None


def main_segment(command: str) -> tuple[Segment | None, list[Segment]]:
    """The last project command of a command line and the setup commands before it."""
    found = segments(command)
    index = main_index(found)
    if index is None:
        return None, [s for s in found if s.setup]
    return found[index], [s for s in found[:index] if s.setup]


def worked_segments(command: str, state: str = "completed", output: str = "") -> list[Segment]:
    """The project commands a command line is shown to have run successfully, given the
    state its call ended in and its output (`observed.segment_outcomes`)."""
    line = parse(command)
    found = observed.segment_outcomes(line, observed.of_state(state), output)
    return [
        step.command
        for step, outcome in zip(line.steps, found, strict=True)
        if outcome is Outcome.WORKED and step.command.kind is not None
    ]


def trap_subject(command: str) -> str | None:
    """What a trap can be about: a project command, else a setup step (normal forms)."""
    main, setups = main_segment(command)
    if main is not None:
        return main.normal
    return setups[-1].normal if setups else None


def command_kind(command: str) -> str | None:
    """The kind of the main project command of a line a memory or a rule names (None when
    it has none)."""
    main = _named_main(command)
    return main.kind if main else None


def normal_command(command: str) -> str | None:
    """The normal form of the main project command of a line a memory or a rule names."""
    main = _named_main(command)
    return main.normal if main else None


def _named_main(command: str) -> Segment | None:
    """The main project command of a line written in a memory or a rule, read as it was
    written (`line.memory_line`: `.\\.venv\\Scripts\\python -m pytest` by PowerShell's rules)."""
    line = memory_line(command)
    index = line.main_index
    return None if index is None else line.steps[index].command


def is_hooked_git(command: str) -> bool:
    """`git commit` / `git push`: commands a repository's hooks can refuse."""
    found = segments(command)
    return any(s.words[:2] in (("git", "commit"), ("git", "push")) for s in found)
