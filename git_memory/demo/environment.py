"""A sandbox for the demo: its own repository, state home and provider homes.

Every variable that could point git memory or git at the user's own files is redirected for
the duration of the demo and restored afterwards, so the demo reads and writes nothing of
theirs (not their transcripts, not their state home, not their git config).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from git_memory.errors import GitMemoryError
from git_memory.sessions.providers.table import providers

# The other agents' history homes (docs/sessions.md) point at empty sandbox directories:
# every registered reader's, so an agent added to the table is sandboxed too.
OTHER_AGENTS = tuple(
    provider.variable
    for provider in providers().values()
    if provider.variable not in ("CLAUDE_CONFIG_DIR", "CODEX_HOME")
)
REDIRECTED = (
    "GIT_MEMORY_HOME",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_NOSYSTEM",
    "XDG_STATE_HOME",
    *OTHER_AGENTS,
)


@dataclass(frozen=True)
class Sandbox:
    """Where the demo's repository and private state live."""

    base: Path
    repository: Path
    state_home: Path
    claude_home: Path
    codex_home: Path


@contextmanager
def sandbox(keep: Path | None) -> Iterator[Sandbox]:
    """A fresh sandbox under `keep` (kept) or a temp dir (removed at the end)."""
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        if any(keep.iterdir()):
            raise GitMemoryError(
                "GM_DEMO_DIR_NOT_EMPTY",
                f"{keep} is not empty",
                hint="pass --keep a new or empty directory",
            )
    base = keep.resolve() if keep is not None else Path(tempfile.mkdtemp(prefix="git-memory-demo-"))
    box = Sandbox(base, base / "repository", base / "state", base / "claude", base / "codex")
    saved = {name: os.environ.get(name) for name in REDIRECTED}
    for directory in (box.state_home, box.claude_home, box.codex_home):
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    (base / "gitconfig").write_text("")
    os.environ.update(
        GIT_MEMORY_HOME=str(box.state_home),
        CLAUDE_CONFIG_DIR=str(box.claude_home),
        CODEX_HOME=str(box.codex_home),
        GIT_CONFIG_GLOBAL=str(base / "gitconfig"),
        GIT_CONFIG_NOSYSTEM="1",
        XDG_STATE_HOME=str(base / "xdg"),
    )
    os.environ.update({name: str(base / "agents" / name.lower()) for name in OTHER_AGENTS})
    try:
        yield box
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        if keep is None:
            shutil.rmtree(base, ignore_errors=True)
