"""Find transcript files: every registered agent's home, and imported folders.

Each provider lists its own layout (`sessions/providers/`); sub-agent transcripts are
listed on purpose, marked `excluded`, so a sync counts them without indexing them. An
imported `--source` folder is either a copy of an agent's home (any of the seven layouts)
or a plain folder of Claude Code and Codex JSON-lines transcripts.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

CLAUDE = "claude-code"
CODEX = "codex"


class SourceFile(NamedTuple):
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


def default_roots(names: Sequence[str] | None = None) -> list[tuple[str, Path]]:
    """(provider, home directory) of every registered agent, or of the `names` given."""
    from git_memory.sessions.providers import providers

    table = providers()
    return [(name, table[name].home()) for name in (names or table) if name in table]


def discover(
    roots: list[tuple[str, Path]] | None = None, extra: Sequence[Path] = ()
) -> list[SourceFile]:
    """Every transcript under the provider homes and the imported `extra` folders."""
    from git_memory.sessions.providers import providers

    table = providers()
    found: list[SourceFile] = []
    for name, root in roots if roots is not None else default_roots():
        found += table[name].find(str(root))
    for folder in extra:
        found += _imported(str(folder))
    return _prefer_plain(found)


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


def _imported(folder: str) -> list[SourceFile]:
    from git_memory.sessions.providers import codex, providers

    if any(os.path.exists(os.path.join(folder, name)) for name in _HOME_MARKERS):
        # A copy of an agent's home: every provider lists its own layout in it.
        found: dict[str, SourceFile] = {}
        for provider in providers().values():
            for source in provider.find(folder):
                found.setdefault(source.path, source)
        return list(found.values())
    out = codex.rollouts(folder, folder)
    for path, name, below in walk(folder):
        if name.endswith(".jsonl") and name != ".jsonl" and not name.startswith("rollout-"):
            parts = below.split("/") if below else []
            subagent = name.startswith("agent-") or "subagents" in parts
            rel = f"{below}/{name}" if below else name
            stem = name[: -len(".jsonl")]
            out.append(SourceFile(path, CLAUDE, stem, rel, "subagent" if subagent else None))
    return out


# Entries of an agent's home directory (Claude Code and Qwen Code `projects`, Cursor
# `projects`, Codex `sessions`, Gemini CLI `tmp`, Copilot CLI `session-state`, OpenCode).
_HOME_MARKERS = (
    "projects",
    "sessions",
    "archived_sessions",
    "tmp",
    "session-state",
    "history-session-state",
    "storage",
    "opencode.db",
)


def _prefer_plain(found: list[SourceFile]) -> list[SourceFile]:
    """A rollout present both plain and compressed is read once, from the plain file."""
    plain = {f.path for f in found if not f.path.endswith(".zst")}
    return [f for f in found if not (f.path.endswith(".zst") and f.path[: -len(".zst")] in plain)]
