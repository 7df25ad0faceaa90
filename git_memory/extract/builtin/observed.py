"""What a transcript shows of a command's result: worked, failed, or unknown, per step.

The command model decides from the line's exit status and the tools' own words
(`git_memory/command_line/outcomes.py`, issue 26 and issue 39); what only an agent's
transcript tells is decided here first:
- a run sent to the background, stopped by the agent's timeout or interrupted is *unknown*,
  whatever the call's state says, but for a server that said it is up by then
  (`command_line/reports_servers.py`: "VITE v5.4.2  ready in 312 ms", "Uvicorn running on
  …"): it started, so the command that starts the application worked (or a later call
  showed it up: `served.py`);
- so is a success whose captured output stops in the middle of a progress display
  ("building for production...");
- a code-mode cell that printed the whole exec result (`{"exit_code": 0, …}`) shows the
  exit status;
- lines an agent adds after a command's own output (Gemini CLI's `Exit Code: 0`) are not
  the command's output.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from git_memory.command_line.line import Line, Step
from git_memory.command_line.outcomes import line_outcomes, printed_failures
from git_memory.command_line.reports import Outcome
from git_memory.command_line.reports_servers import RUN, SERVER_REPORTS
from git_memory.command_line.signature import ANSI, STARTUP

__all__ = [
    "Outcome",
    "awaited",
    "cut_short",
    "exit_field",
    "of_state",
    "own_output",
    "segment_outcomes",
    "server_failed",
    "server_up",
    "started",
    "stopped",
    "up",
]

# The agent did not wait for the command to end: background launches, its own timeouts,
# interruptions (Claude Code, Codex `exec_command` / code mode, Gemini CLI and Qwen Code,
# Copilot CLI, OpenCode; shapes in tests/fixtures/PROVENANCE.md and the fixtures).
# ... and of those, what stopped the command: the agent's timeout, an interruption.
_STOPPED = (
    r"^Command timed out after\b|\bwaiting for command\b.*\btimed out\b"
    r"|<bash_metadata>[^<]{0,500}?\b(?:timeout|timed out|terminated|aborted)\b"
    r"|^\[Request interrupted by user|\[Operation Cancelled\]|^Command was cancelled\b"
    r"|^Command aborted\b|\binterrupted by user\b"
)
_NOT_AWAITED = re.compile(
    r"(?im)\bCommand running in background with ID\b"
    r"|\bmoved to (?:the )?background\b|\bwas manually backgrounded\b"
    r"|^Process running with session ID \d+|^Script running with cell ID\b"
    rf"|^Background PIDs: \d|{_STOPPED}"
)
_STOPPED_BY_AGENT = re.compile(f"(?im){_STOPPED}")
_AWAIT_HINTS = (
    "timed out",
    "background",
    "running with",
    "bash_metadata",
    "interrupted",
    "cancelled",
    "aborted",
)
_EXIT_FIELD = re.compile(r'"exit_code"\s*:\s*(-?\d+)')


def of_state(state: str) -> Outcome:
    """The outcome an agent's result state records (`completed` is exit 0)."""
    if state == "completed":
        return Outcome.WORKED
    return Outcome.FAILED if state == "failed" else Outcome.UNKNOWN


def awaited(output: str) -> bool:
    """False when the agent stopped waiting: background, its timeout, an interruption."""
    lower = output.lower()
    return not (any(hint in lower for hint in _AWAIT_HINTS) and _NOT_AWAITED.search(output))


# Lines an agent adds after a command's own output (Gemini CLI and Qwen Code: `Exit Code: 1`;
# Copilot CLI: `<exited with exit code 0>`).
_AGENT_TRAILER = re.compile(
    r"^(?:Process Group PGID|Background PIDs|Signal|Exit Code|Error): "
    r"|^<(?:command with id: \w+ )?exited with exit code -?\d+>\s*$"
)
_OLDER_GEMINI_TRAILER = ("Signal: ", "Background PIDs: ")
# Lines an agent puts before a command's own output (Gemini CLI and Qwen Code: `Command:`,
# `Directory:`; Codex: `Exit code: 0`, `Wall time: …`, `Chunk ID: …`, `Process exited with
# code 0`, `Original token count: …`, `Total output lines: …`, then `Output:`; Claude Code:
# `Exit code 1` before a failure's output).
_AGENT_HEADER = re.compile(
    r"^(?:Command|Directory): |^(?:Exit code:? -?\d+|Wall time: .*|Chunk ID: \w+"
    r"|Process exited with code -?\d+|Original token count: \d+|Total output lines: \d+"
    r"|Output:)\s*$"
)
# Gemini CLI and Qwen Code start the output on the line that says so (`Output: On branch`).
_OUTPUT_LABEL = "Output: "
# A progress line: an activity still going on ("vite v6.4.2 building for production...",
# "transforming (8) node_modules/react/jsx-runtime.js").
_IN_PROGRESS = re.compile(r"(?:\.\.\.|…)\s*$|^\s*[a-z]+ing \(\d+\) \S")


def cut_short(output: str) -> bool:
    """The output stops in the middle of a progress display: what was captured is not how the
    command ended, so a success the agent recorded for it was not seen."""
    lines = [line for line in own_output(output).splitlines() if line.strip()]
    return bool(lines) and bool(_IN_PROGRESS.search(lines[-1]))


def exit_field(output: str) -> Outcome:
    """A script that printed the whole exec result (`{"exit_code": 0, …}`) shows the exit."""
    found = _EXIT_FIELD.findall(output)
    if len(found) != 1:
        return Outcome.UNKNOWN
    return Outcome.WORKED if int(found[0]) == 0 else Outcome.FAILED


# A line a progress display wrote and then erased, each of its frames (`Writing service
# worker...` + CR + the code that clears the line): the terminal no longer shows it.
_ERASED = re.compile(r"[^\n]*\r\x1b\[2?K")


def own_output(output: str) -> str:
    """The command's output without the lines an agent added around it (`_AGENT_HEADER`,
    `_AGENT_TRAILER`; Gemini CLI's `Output: (empty)` and Claude Code's `(Bash completed with
    no output)` for none) and what the shell's start-up files printed before it."""
    # The blank lines inside it stay: a report may be shaped by them (Node ends an uncaught
    # exception's stack with a blank line, then its version). The ends move by index: an
    # output of many blank or framing lines costs its length. A tool that wrote to a terminal
    # spelled its words with colour codes: the words are read without them.
    lines = (ANSI.sub("", _ERASED.sub("", output)) if "\x1b" in output else output).splitlines()
    first, last = 0, len(lines)  # the command's own lines are lines[first:last]

    def blank(index: int) -> bool:
        return not lines[index].strip()

    # Gemini CLI's older trailer was taken off (its `Signal:`, `Background PIDs:`): the
    # `Error: ` line above is its own. The newer one (`Exit Code:`, `Process Group PGID:`)
    # and Copilot CLI's `<exited …>` have none, so an `Error: ` above them is the command's.
    framed = False
    while last > first:
        line = lines[last - 1]
        if blank(last - 1):
            last -= 1
        elif not _AGENT_TRAILER.match(line):
            break
        elif line.startswith("Error: "):
            if not (framed or line == "Error: (none)"):
                break  # the command's own last line ("Error: listen EADDRINUSE …")
            last -= 1
            break  # Gemini CLI writes one `Error: ` line: what is above it is the command's
        else:
            framed = framed or line.startswith(_OLDER_GEMINI_TRAILER)
            last -= 1
    while first < last and (
        blank(first) or _AGENT_HEADER.match(lines[first]) or STARTUP.match(lines[first])
    ):
        first += 1
    while last > first and blank(last - 1):
        last -= 1
    if first < last and _NO_OUTPUT.match(lines[first]):
        first += 1
        while first < last and blank(first):
            first += 1
    elif first < last and lines[first].startswith(_OUTPUT_LABEL):
        lines[first] = lines[first].removeprefix(_OUTPUT_LABEL)
    return "\n".join(lines[first:last])


# What an agent writes in place of a command's output when it printed nothing.
_NO_OUTPUT = re.compile(r"^(?:Output: \(empty\)|\((?:Bash )?completed with no output\))\s*$")


def segment_outcomes(line: Line, exit_status: Outcome, output: str) -> list[Outcome]:
    """The observed outcome of each step of a command line, given the line's exit status as
    the agent recorded it (`exit_status`) and its output."""
    steps = line.steps
    if not steps:
        return []
    if not awaited(output):
        return started(line, own_output(output))
    if exit_status is Outcome.WORKED and steps[-1].command.kind is not None and cut_short(output):
        # a project command's progress display, not its end (not an installer's)
        return [Outcome.UNKNOWN] * len(steps)
    return line_outcomes(line, exit_status, own_output(output))


def started(line: Line, output: str) -> list[Outcome]:
    """The outcomes of a line the agent stopped waiting for: its server, the last command
    that starts the application, worked when it said it is up and nothing failed, and so did
    the commands `&&` joined before it; the rest is unknown."""
    if server_up(output) and not printed_failures(output):
        return up(line.steps)
    return [Outcome.UNKNOWN] * len(line.steps)


def up(steps: Sequence[Step]) -> list[Outcome]:
    """The outcomes of steps whose server was seen up: the last command that starts the
    application worked, and so did the commands `&&` joined before it; the rest is unknown."""
    outcomes = [Outcome.UNKNOWN] * len(steps)
    servers = [i for i, step in enumerate(steps) if step.command.kind == RUN]
    if servers:
        index = servers[-1]
        outcomes[index] = Outcome.WORKED
        while index > 0 and steps[index - 1].joiner == "&&":
            index -= 1  # `npm run build && npm start`: it ran, so what came before worked
            outcomes[index] = Outcome.WORKED
    return outcomes


# What a server prints when its start, a request or the process itself fails.
_SERVER_ERROR = re.compile(
    r"(?i)\b(?:error|err!|exception|traceback|fatal|panic(?:ked)?|crash(?:ed)?|killed"
    r"|segmentation fault|unhandled\w*|eaddrinuse|address already in use"
    r"|failed to (?:compile|start))\b|⨯"
)


def stopped(output: str) -> bool:
    """The agent's timeout or an interruption stopped the command (a server so stopped is
    no longer running)."""
    return bool(_STOPPED_BY_AGENT.search(output))


def server_failed(output: str) -> bool:
    """A server's output tells of a failure: its start, a request or the process failed."""
    return bool(_SERVER_ERROR.search(output))


def server_up(output: str) -> bool:
    """A development server's own line saying it is up (`reports_servers.SERVER_REPORTS`),
    with no error on that line or after it."""
    starts = [
        found.start()
        for report in SERVER_REPORTS
        if report.hint in output
        for found in report.pattern.finditer(output)
    ]
    if not starts:
        return False
    line_start = output.rfind("\n", 0, max(starts)) + 1
    return not _SERVER_ERROR.search(output, line_start)
