"""Find transcript files: every registered agent's home, and imported folders.

Each provider lists its own layout (`sessions/providers/`); sub-agent transcripts are
listed on purpose, marked `excluded`, so a sync counts them without indexing them. An
imported `--source` folder is either a copy of an agent's home (any of the eight layouts)
or a plain folder of Claude Code and Codex JSON-lines transcripts.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from git_memory.sessions.providers import codex
from git_memory.sessions.providers.base import SourceFile, walk
from git_memory.sessions.providers.table import providers

CLAUDE = "claude-code"
CODEX = "codex"


def default_roots(names: Sequence[str] | None = None) -> list[tuple[str, Path]]:
    """(provider, home directory) of every registered agent, or of the `names` given."""
    table = providers()
    return [(name, table[name].home()) for name in (names or table) if name in table]


def discover(
    roots: list[tuple[str, Path]] | None = None, extra: Sequence[Path] = ()
) -> list[SourceFile]:
    """Every transcript under the provider homes and the imported `extra` folders."""
    table = providers()
    found: list[SourceFile] = []
    for name, root in roots if roots is not None else default_roots():
        found += table[name].find(str(root))
    for folder in extra:
        found += _imported(str(folder))
    return _prefer_plain(found)


def _imported(folder: str) -> list[SourceFile]:
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
# `projects`, Codex `sessions`, Gemini CLI `tmp`, Copilot CLI `session-state`, OpenCode,
# Antigravity's product folders).
_HOME_MARKERS = (
    "projects",
    "sessions",
    "archived_sessions",
    "tmp",
    "session-state",
    "history-session-state",
    "storage",
    "opencode.db",
    "antigravity-cli",
    "antigravity",
    "antigravity-ide",
)


def _prefer_plain(found: list[SourceFile]) -> list[SourceFile]:
    """A rollout present both plain and compressed is read once, from the plain file."""
    plain = {f.path for f in found if not f.path.endswith(".zst")}
    return [f for f in found if not (f.path.endswith(".zst") and f.path[: -len(".zst")] in plain)]
