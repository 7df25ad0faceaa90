"""One reader per coding agent, registered in one table (`PROVIDERS`).

A provider says where its agent keeps history (`home`), how to list the transcripts there
cheaply (`find`: names and stats only), and how to turn them into the provider-neutral
events of `sessions/records.py`, in one of two ways:
- `lines`: an append-only JSON-lines reader, resumed after the last complete line on the
  next sync (Claude Code, Codex, Qwen Code, Copilot CLI, Cursor JSONL);
- `document`: a whole-source reader for files rewritten in place or spread over several
  files or database rows (Gemini CLI, OpenCode, Copilot's legacy JSON, Cursor text); such a
  source is read again whenever its identity changes.
Adding an agent is one module here and one row of the table.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree
    from git_memory.sessions.discover import SourceFile
    from git_memory.sessions.records import Diagnostic, Event


class LineReader(Protocol):
    """A JSON-lines reader: pure functions over decoded records."""

    def new_state(self) -> dict[str, Any]:
        """Reader state of a file read from its start."""
        ...

    def read_record(
        self, record: dict[str, Any], offset: int, state: dict[str, Any]
    ) -> list[Event]:
        """Events of one record."""
        ...

    def unknown_type(self, record: dict[str, Any], state: dict[str, Any]) -> str | None:
        """The record's type when the reader does not know it."""
        ...

    def deferred_result(
        self, record: dict[str, Any], call_id: str | None
    ) -> tuple[str, str] | None:
        """(stored head, full output) of a large tool result in this record."""
        ...


@dataclass
class Document:
    """What a whole-source reader produced: events at stable positions, diagnostics, and
    `subagent` when the source is a sub-agent's session (indexed as excluded)."""

    events: list[Event] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    subagent: bool = False


@dataclass(frozen=True)
class Provider:
    """One agent's history: where it lives, how to list it, how to read it."""

    name: str
    label: str
    variable: str  # the environment variable that moves its home (documented per agent)
    home: Callable[[], Path]
    find: Callable[[str], list[SourceFile]]
    lines: LineReader | None = None
    document: Callable[[SourceFile], Document] | None = None
    # Read before a JSON-lines file's first record (e.g. a sidecar naming its cwd).
    seed: Callable[[SourceFile], dict[str, Any]] | None = None

    def reads_whole(self, source: SourceFile) -> bool:
        """Whether `source` is read by the whole-source reader (JSON lines otherwise)."""
        if self.document is None:
            return False
        return self.lines is None or not source.path.endswith((".jsonl", ".jsonl.zst"))


def env_home(variable: str, default: str, below: str = "") -> Callable[[], Path]:
    """`$variable/below` when the variable is set, else `default` under the user's home."""

    def home() -> Path:
        value = os.environ.get(variable)
        if value:
            return Path(value) / below if below else Path(value)
        return Path(os.path.expanduser(default))

    return home


def _table() -> dict[str, Provider]:
    from git_memory.sessions.providers import (
        claude_code,
        codex,
        copilot_cli,
        cursor,
        gemini_cli,
        opencode,
        qwen_code,
    )

    found = [
        claude_code.PROVIDER_INFO,
        codex.PROVIDER_INFO,
        gemini_cli.PROVIDER_INFO,
        qwen_code.PROVIDER_INFO,
        opencode.PROVIDER_INFO,
        copilot_cli.PROVIDER_INFO,
        cursor.PROVIDER_INFO,
    ]
    return {provider.name: provider for provider in found}


_CACHE: dict[str, Provider] = {}

NAMES: tuple[str, ...] = (
    "claude-code",
    "codex",
    "gemini-cli",
    "qwen-code",
    "opencode",
    "copilot-cli",
    "cursor",
)


# Agents' own memory stores (store, agent) that `memory.sources` may also name; their readers
# are `git_memory/agent_memory/` (docs/agent-memory.md).
MEMORY_STORES: tuple[tuple[str, str], ...] = (
    ("claude-auto-memory", "claude-code"),
    ("claude-agent-memory", "claude-code"),
    ("claude-local", "claude-code"),
    ("agents-override", "codex"),
    ("gemini-memories", "gemini-cli"),
    ("serena-memories", "serena"),
    ("codex-memories", "codex"),
    ("gemini-skill-inbox", "gemini-cli"),
    ("copilot-instructions", "copilot-cli"),
)


def providers() -> dict[str, Provider]:
    """Every registered provider by name, in registration order."""
    if not _CACHE:
        _CACHE.update(_table())
    return _CACHE


def provider(name: str) -> Provider:
    """The provider called `name`."""
    return providers()[name]


def line_reader(name: str) -> LineReader:
    """The JSON-lines reader of a provider that has one."""
    reader = provider(name).lines
    if reader is None:
        raise KeyError(name)
    return reader


def parse_sources(value: str | None) -> list[str]:
    """The providers a `memory.sources` value turns on (comma list; unset or empty: all).

    The list may also name agents' memory stores (docs/agent-memory.md); unknown names raise
    `GM_CONFIG_INVALID`."""
    if value is None or not value.strip():
        return list(NAMES)
    wanted = [part.strip().lower() for part in value.split(",") if part.strip()]
    also = {name for store in MEMORY_STORES for name in store}
    unknown = [name for name in wanted if name not in NAMES and name not in also]
    if unknown:
        from git_memory.errors import GitMemoryError

        raise GitMemoryError(
            "GM_CONFIG_INVALID",
            f"memory.sources names unknown agents: {', '.join(unknown)}",
            hint="git config memory.sources " + ",".join(NAMES),
        )
    return [name for name in NAMES if name in wanted]


def enabled(worktree: Worktree) -> list[str]:
    """The providers `memory.sources` of this worktree turns on."""
    return parse_sources(worktree.config_value("memory.sources"))
