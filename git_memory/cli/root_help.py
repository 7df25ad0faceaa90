"""The root command's words, and `git memory -h` printed without loading click.

`git memory -h` is the first thing a newcomer runs and its start-up is a measured budget
(`tests/perf/bench_cli_startup.py`): it prints the usage, the description and one summary per
command, so it imports the registry of summaries and `textwrap`, nothing else. The text is
laid out exactly as click lays out the same group's help (a test compares the two at many
widths); every other help request goes through click.
"""

from __future__ import annotations

import os
import sys
from textwrap import TextWrapper

from git_memory import output
from git_memory.demo.declaration import DEMO
from git_memory.doctor.declaration import DOCTOR
from git_memory.ops.registry import OPERATIONS, OperationSpec

ROOT_HELP = (
    "Team memory mined from AI coding agent transcripts, reviewed and kept in git.\n\n"
    "Memories live as sanitized Markdown under .memory/ in the worktree; private state "
    "(transcript index, candidates, plans) lives in the state home. git memory never "
    "commits, stages, pushes or moves refs. `git memory help glossary` says the words it "
    "uses (candidate, quarantine, typed-fact, plan digest…) in plain words."
)
USAGE_ARGS = "[OPTIONS] COMMAND [ARGS]..."
DIRECTORY_OPTION_HELP = "Run as if git memory was started in DIR (like git -C; may be repeated)."
ROOT_OPTIONS = (
    ("--version", "Show the version and exit."),
    ("-C DIR", DIRECTORY_OPTION_HELP),
    ("-h, --help", "Show this message and exit."),
)
MAX_CONTENT_WIDTH = 100

# Front-end commands that are not operations (they adapt or document the others).
BUILTIN_COMMANDS: dict[str, tuple[str, str]] = {
    "help": (
        "git_memory.cli.help_cmd",
        "Show help for git memory, one of its commands, or the glossary.",
    ),
    "mcp": ("git_memory.cli.mcp_cmd", "Serve the operations as MCP tools over stdio."),
}

# The registry's operations plus the newcomer tools above ops/, which declare themselves.
CLI_OPERATIONS: tuple[OperationSpec, ...] = (*OPERATIONS, DEMO, DOCTOR)

GROUP_HELP: dict[tuple[str, ...], str] = {
    ("sessions",): "Index and inspect agent transcripts of this worktree.",
    ("hooks",): "Install, remove or inspect the pre-commit lint hook and index merge driver.",
}


def children(prefix: tuple[str, ...]) -> dict[str, list[OperationSpec]]:
    """Operations grouped by the next word after `prefix` in their CLI path."""
    groups: dict[str, list[OperationSpec]] = {}
    for declaration in CLI_OPERATIONS:
        path = declaration.cli_path
        if path[: len(prefix)] == prefix and len(path) > len(prefix):
            groups.setdefault(path[len(prefix)], []).append(declaration)
    return groups


def command_names(prefix: tuple[str, ...]) -> list[str]:
    """The command words below `prefix`, sorted (the root adds the builtin commands)."""
    names = set(children(prefix))
    if not prefix:
        names |= set(BUILTIN_COMMANDS)
    return sorted(names)


def group_help(path: tuple[str, ...]) -> str:
    """The one-line help of the command group at `path`."""
    return GROUP_HELP.get(path, " ".join(path).capitalize() + " commands.")


def summary(prefix: tuple[str, ...], name: str) -> str:
    """The one-line summary of command `name` below `prefix`."""
    if not prefix and name in BUILTIN_COMMANDS:
        return BUILTIN_COMMANDS[name][1]
    path = (*prefix, name)
    for member in children(prefix)[name]:
        if member.cli_path == path:
            return member.summary
    return group_help(path)


def terminal_width() -> int:
    """The help width click would use here: the terminal's columns (or COLUMNS), capped."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return max(min(columns or 80, MAX_CONTENT_WIDTH) - 2, 50)


def _wrap(text: str, width: int, first: str, rest: str) -> str:
    wrapper = TextWrapper(
        width, initial_indent=first, subsequent_indent=rest, replace_whitespace=False
    )
    return wrapper.fill(text)


def _definitions(rows: list[tuple[str, str]], width: int, indent: int = 2) -> list[str]:
    first_col = min(max(len(term) for term, _ in rows), 30) + 2
    text_width = max(width - first_col - 2, 10)
    lines = []
    for term, text in rows:
        head = " " * indent + term
        if len(term) <= first_col - 2:
            head += " " * (first_col - len(term))
        else:
            lines.append(head)
            head = " " * (first_col + indent)
        wrapped = _wrap(text, text_width, "", "").splitlines()
        lines.append(head + wrapped[0])
        lines += [" " * (first_col + indent) + line for line in wrapped[1:]]
    return lines


def render_root_help(width: int) -> str:
    """`git memory -h` at `width` columns of text, as click prints it."""
    prefix = "Usage: git memory "
    lines = [_wrap(USAGE_ARGS, width, prefix, " " * len(prefix)), ""]
    for paragraph in ROOT_HELP.split("\n\n"):
        lines += [_wrap(" ".join(paragraph.split("\n")), width, "  ", "  "), ""]
    lines += ["Options:", *_definitions(list(ROOT_OPTIONS), width), ""]
    rows = [(name, summary((), name)) for name in command_names(())]
    lines += ["Commands:", *_definitions(rows, width)]
    return "\n".join(lines)


def print_root_help() -> None:
    """Print `git memory -h` for this terminal."""
    output.echo(render_root_help(terminal_width()))
