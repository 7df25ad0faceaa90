"""The only module that starts subprocesses.

Git itself is read through pygit2; subprocesses are for runners (model CLIs), hooks chaining a
legacy hook, and `git help`. Inherited `GIT_*` variables are scrubbed by default so a hook's
environment (GIT_INDEX_FILE, GIT_DIR, …) never leaks into a child that was not meant to see it.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path


def scrubbed_environment(
    base: Mapping[str, str] | None = None, *, keep_git: Sequence[str] = ()
) -> dict[str, str]:
    """A copy of the environment without inherited `GIT_*` variables (except `keep_git`)."""
    source = os.environ if base is None else base
    return {
        key: value for key, value in source.items() if not key.startswith("GIT_") or key in keep_git
    }


def run(
    argv: Sequence[str],
    *,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    input_bytes: bytes | None = None,
    timeout: float | None = None,
    capture: bool = True,
) -> subprocess.CompletedProcess[bytes]:
    """Run a short-lived command to completion (no shell)."""
    return subprocess.run(
        list(argv),
        cwd=cwd,
        env=dict(env) if env is not None else None,
        input=input_bytes,
        timeout=timeout,
        capture_output=capture,
        check=False,
    )


def popen(
    argv: Sequence[str],
    *,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    new_session: bool = True,
) -> subprocess.Popen[bytes]:
    """Start a long-running child with pipes, in its own process group by default."""
    return subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=dict(env) if env is not None else None,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=new_session,
    )
