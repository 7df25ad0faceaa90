"""A real `git commit` the installed hook must stop, and what it said."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.hooks.conftest import commit, head
from tests.repos import Repo


def commit_stopped(repo: Repo, code: str, env: dict[str, str] | None = None) -> str:
    """Run `git commit`; assert the hook stopped it with `code` (never an internal error),
    HEAD unchanged. Returns git's stderr."""
    before = head(repo)
    stopped = commit(repo, env=env)
    assert stopped.returncode != 0, stopped.stdout + stopped.stderr
    assert "GM_INTERNAL" not in stopped.stderr
    assert code in stopped.stderr
    assert head(repo) == before
    return stopped.stderr


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert child.pid != os.getpid()
    return child.pid
