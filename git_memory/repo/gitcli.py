"""Questions only git itself answers correctly, asked of the `git` binary.

libgit2 reads the repository and global config files but not the configuration git layers on
top of them at run time (`GIT_CONFIG_GLOBAL`, `git -c …`, `GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n`).
Where the answer decides whether something git runs is really in place (the hooks directory),
we ask git, with exactly those variables kept and every other inherited `GIT_*` scrubbed.
"""

from __future__ import annotations

import os
from pathlib import Path

from git_memory._proc import run, scrubbed_environment
from git_memory.errors import GitMemoryError

GIT_TIMEOUT = 30.0


def git_environment() -> dict[str, str]:
    """The environment for a git child: no inherited `GIT_*` but git's config layers."""

    keep = [key for key in os.environ if key.startswith("GIT_CONFIG")]
    return scrubbed_environment(keep_git=keep)


def git_path(root: Path, name: str) -> Path:
    """`git rev-parse --git-path NAME` run in `root`, as an absolute path."""

    argv = ["git", "rev-parse", "--git-path", name]
    try:
        result = run(argv, cwd=root, env=git_environment(), timeout=GIT_TIMEOUT)
    except (FileNotFoundError, PermissionError) as exc:
        raise GitMemoryError(
            "GM_GIT_UNAVAILABLE",
            "the git program could not be started",
            hint="install git or put it on PATH",
        ) from exc
    if result.returncode != 0:
        detail = result.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitMemoryError(
            "GM_GIT_FAILED",
            f"git rev-parse --git-path {name} failed: {detail[0] if detail else 'no output'}",
            hint="fix the git configuration git reports, then run the command again",
        )
    printed = result.stdout.decode("utf-8", "surrogateescape").rstrip("\n")
    return Path(os.path.normpath(root / printed))
