"""Whether an observed command line runs a memory's command as a person means it.

A memory's command is a line too (`mise run fmt && mise run lint`, `cd go && go test ./...`,
`gh pr view --json reviewThreads`). An observed line matches it when it runs each of the
memory's commands, in the memory's order, each in the same directory (a `cd X &&` prefix,
or the directory the memory is scoped to, against the one the observed command ran in):
- a project command matches through its normal form (`go test -run TestX ./pkg/` runs
  `go test ./...`; `uv run pytest` is not `pytest`);
- any command matches through its shape: the memory's words appear in the observed
  command's, in order, a placeholder matching the same placeholder; the observed command may
  add options and values that vary (`gh pr view 104 --json reviewThreads` runs
  `gh pr view --json reviewThreads`) but no other bare word (`mise run lint-fix` is not
  `mise run lint`);
- a `cd` of the memory's line says where the rest runs, and need not be run itself;
- `leading`: what a rule forbids or asks for is often written as a command's leading words
  (never `pip install`): then any command whose shape starts with those words runs it
  (`pip install requests`); a project command still matches through its normal form.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from git_memory.command_line.line import (
    CD,
    Command,
    Line,
    Step,
    join_directory,
    memory_line,
    parse,
)
from git_memory.command_line.shapes import PLACEHOLDERS


def command_matches(wanted: Command, seen: Command, *, leading: bool = False) -> bool:
    """`seen` runs `wanted` as a person means it (directories aside); with `leading`, a
    command that is not a project command also when `seen` starts with its words."""
    if wanted.kind is not None and seen.kind is not None:
        return _words_match(tuple(wanted.normal.split()), tuple(seen.normal.split()))
    if leading and wanted.kind is None:
        words = wanted.shape.words
        if seen.shape.words[: len(words)] == words:
            return True
    return _words_match(wanted.shape.words, seen.shape.words)


@functools.lru_cache(maxsize=65536)
def _words_match(wanted: tuple[str, ...], seen: tuple[str, ...]) -> bool:
    """The wanted words appear in the seen ones in order, the same program first, and what
    the seen ones add is options, their values, or placeholders."""
    if not wanted or not seen or wanted[0] != seen[0]:
        return False
    index = 0
    previous = ""
    for word in seen:
        if index < len(wanted) and wanted[index] == word:
            index += 1
        elif not _extra(word, previous):
            return False
        previous = word
    return index == len(wanted)


def _extra(word: str, previous: str) -> bool:
    """A word the observed command may add: an option, an option's value, a placeholder."""
    return word.startswith("-") or word in PLACEHOLDERS or previous.startswith("-")


def _wanted_steps(line: Line, directory: str) -> list[tuple[Command, str | None]]:
    """The commands a memory's line asks for, each with the directory it runs in."""
    return [
        (step.command, _joined(directory, step.directory))
        for step in line.steps
        if step.command.words[:1] and step.command.words[0] not in CD
    ]


def _joined(base: str, directory: str | None) -> str | None:
    if directory is None:
        return None
    return join_directory(base, directory) if directory else base


def runs(
    observed: str, memory: str, *, directory: str = "", at: str = "", leading: bool = False
) -> bool:
    """The observed line runs the memory's command line: every command of it, in order,
    each in the memory's directory. `directory` is where the memory's line starts (its
    scope, relative to the repository root), `at` where the observed line started;
    `leading` as in the module docstring."""
    wanted = _wanted_steps(memory_line(memory), directory)
    if not wanted:
        return False
    found = [(step.command, _joined(at, step.directory)) for step in parse(observed).steps]
    return _in_order(wanted, found, leading=leading)


@functools.lru_cache(maxsize=65536)
def word_pairs(command: Command) -> frozenset[tuple[str, str]]:
    """(first word, a later word) of a command as typed, in normal form and in shape, and
    (first word, "") : an observed command that runs a memory's holds the memory's first
    pair (`first_pair`), so lines can be found by pairs without matching each."""
    found: set[tuple[str, str]] = set()
    for words in {command.words, tuple(command.normal.split()), command.shape.words}:
        if words:
            first = words[0]
            found.add((first, ""))
            for word in words[1:]:
                found.add((first, word))
    return frozenset(found)


def first_pairs(memory: str) -> frozenset[tuple[str, str]]:
    """The (first word, second word or "") of the memory's first command as typed, in
    normal form and in shape: a line that runs the memory holds one of them (`word_pairs`)."""
    wanted = _wanted_steps(memory_line(memory), "")
    if not wanted:
        return frozenset()
    command = wanted[0][0]
    found = set()
    for words in (command.words, tuple(command.normal.split()), command.shape.words):
        if words:
            found.add((words[0], words[1] if len(words) > 1 else ""))
    return frozenset(found)


def _in_order(
    wanted: Sequence[tuple[Command, str | None]],
    found: Sequence[tuple[Command, str | None]],
    *,
    leading: bool = False,
) -> bool:
    index = 0
    for command, where in found:
        if index == len(wanted):
            break
        target, target_where = wanted[index]
        if (
            where is not None
            and where == target_where
            and command_matches(target, command, leading=leading)
        ):
            index += 1
    return index == len(wanted)


def steps_running(line: Line, memory: str, *, directory: str = "") -> list[Step]:
    """The steps of `line` that run one of the memory's commands (in its directory)."""
    wanted = _wanted_steps(memory_line(memory), directory)
    return [
        step
        for step in line.steps
        if any(
            step.directory is not None
            and step.directory == where
            and command_matches(command, step.command)
            for command, where in wanted
        )
    ]
