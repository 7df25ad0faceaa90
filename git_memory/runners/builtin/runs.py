"""A session's tool calls in order, as the command facts read them (common turn model only)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from git_memory.runners.builtin import shell
from git_memory.runners.builtin.shell import Segment


@dataclass(frozen=True)
class Run:
    """One tool call of a session: a shell command (parsed) or a file edit."""

    turn_key: str
    command: str | None
    state: str
    output: str
    main: Segment | None
    setups: tuple[Segment, ...] = field(default=())
    edit: bool = False

    @property
    def worked(self) -> list[Segment]:
        """The project segments this run showed to work (none unless it completed)."""
        if self.state != "completed" or self.command is None:
            return []
        return shell.worked_segments(self.command)

    @property
    def key(self) -> str | None:
        """The normal form of the main project command, when there is one."""
        return self.main.normal if self.main else None


def session_runs(records: Iterable[Any], scrub: Callable[[str], str] = str) -> Iterator[Run]:
    """Every shell call and edit of the records, in order; paths scrubbed from commands."""
    for record in records:
        for call in record.tool_calls:
            command = shell.command_of(call)
            if command is None:
                if shell.is_edit(call):
                    yield Run(record.turn_key, None, call.state, "", None, edit=True)
                continue
            command = scrub(command)
            main, setups = shell.main_segment(command)
            output = scrub(call.output or "")
            yield Run(record.turn_key, command, call.state, output, main, tuple(setups))
