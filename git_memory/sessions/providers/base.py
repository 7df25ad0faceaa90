"""What every agent's reader is made of, and the agents `memory.sources` may name.

One reader per coding agent (a module of this package), registered in one table
(`providers/table.py`). A provider says where its agent keeps history (`home`), how to list
the transcripts there cheaply (`find`: names and stats only), and how to turn them into the
provider-neutral events of `sessions/records.py`, in one of two ways:
- `lines`: an append-only JSON-lines reader, resumed after the last complete line on the
  next sync (Claude Code, Codex, Qwen Code, Copilot CLI, Cursor JSONL);
- `document`: a whole-source reader for files rewritten in place or spread over several
  files or database rows (Gemini CLI, OpenCode, Copilot's legacy JSON, Cursor text); such a
  source is read again whenever its identity changes.
Adding an agent is one module in this package and one row of the table.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from git_memory.errors import GitMemoryError
from git_memory.records import Record

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree
    from git_memory.sessions.records import Diagnostic, Event


class SourceFile(Record):
    """One transcript file; `display` is its path below the source root (no home path)."""

    path: str
    provider: str
    session_id: str
    display: str
    excluded: str | None = None
    # For a source made of several files or database rows: the (dev, ino, size, mtime_ns)
    # that changes whenever any of them changes (a plain file's identity is its stat).
    identity: tuple[int, int, int, int] | None = None

    @property
    def compressed(self) -> bool:
        """Whether the file is a zstd-compressed rollout."""
        return self.path.endswith(".zst")


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
    """What a whole-source reader produced: events at stable positions, diagnostics,
    `subagent` when the source is a sub-agent's session (indexed as excluded), and
    `attribution`: how the session's folder was found when no record names it (shown by
    `sessions show`)."""

    events: list[Event] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    subagent: bool = False
    attribution: str | None = None


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


NAMES: tuple[str, ...] = (
    "claude-code",
    "codex",
    "gemini-cli",
    "qwen-code",
    "opencode",
    "copilot-cli",
    "cursor",
    "antigravity",
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
        raise GitMemoryError(
            "GM_CONFIG_INVALID",
            f"memory.sources names unknown agents: {', '.join(unknown)}",
            hint="git config memory.sources " + ",".join(NAMES),
        )
    return [name for name in NAMES if name in wanted]


def enabled(worktree: Worktree) -> list[str]:
    """The providers `memory.sources` of this worktree turns on."""
    return parse_sources(worktree.config_value("memory.sources"))


def walk(directory: str) -> list[tuple[str, str, str]]:
    """(full path, name, directory below `directory`) of every file, in sorted order.

    Plain strings throughout: a no-op sync of a large history is mostly this walk."""
    if not os.path.isdir(directory):
        return []
    out: list[tuple[str, str, str]] = []
    for base, dirs, files in os.walk(directory):
        dirs.sort()
        below = under(base, directory)
        prefix = base if base.endswith("/") else base + "/"
        out += [(prefix + name, name, below) for name in sorted(files)]
    return out


def under(path: str, root: str) -> str:
    """`path` relative to `root` (a prefix of it), as a posix string."""
    return path[len(root) :].lstrip("/")
