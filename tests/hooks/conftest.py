"""Helpers for hook tests: entries to stage and a commit that reports its outcome."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from git_memory.formats.entry import Entry, serialize_entry
from tests.repos import GIT_IDENTITY, Repo

SECRET = "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"


def entry_text(entry_id: str, body: str) -> str:
    """A valid entry file with `body`."""
    return serialize_entry(Entry(id=entry_id, body=body))


def commit(
    repo: Repo, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`git commit ARGS` as a user runs it (hooks enabled), not raising on failure."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    for key in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_MEMORY_HOME"):
        if key in os.environ:
            full_env[key] = os.environ[key]
    full_env.update(GIT_IDENTITY)
    full_env.update(env or {})
    return subprocess.run(
        ["git", "commit", "-m", "change", *args],
        cwd=repo.root,
        env=full_env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def head(repo: Repo) -> str:
    """The current HEAD commit."""
    return repo.git("rev-parse", "HEAD").strip()


def hooks_dir(repo: Repo) -> Path:
    """The default hooks directory of `repo`."""
    return repo.root / ".git" / "hooks"
