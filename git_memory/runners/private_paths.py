"""Places of the host a runner must never read: what the isolation probe tries to reach.

The runner's root is built from an allow-list (`view_paths.py`), so none of these is in its
view; this list is what the conformance probe's own program (`isolation_probe.py`) and
`git memory doctor` try to read from inside the sandbox to show it: the state home (the
caller's, and the environment's or default one), every agent's history (where the session
readers look for it), the home directory's dotfiles and credential stores, the `.git` of the
repository we run in, and the system's password hashes.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from git_memory.errors import GitMemoryError
from git_memory.paths import state_home
from git_memory.sessions.discover import default_roots

if sys.platform != "win32":  # the account database (our user's home)
    import pwd

# Credential stores below the home directory that a runner never needs.
CREDENTIAL_STORES = (
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".kube",
    ".docker",
    ".netrc",
    ".git-credentials",
    ".config/gh",
    ".config/gcloud",
)
# Readable by root and never needed by a runner: password hashes.
SYSTEM_SECRETS = ("/etc/shadow", "/etc/gshadow")


def hidden_paths(host_env: Mapping[str, str], own_state_home: Path | None = None) -> list[str]:
    """Every place named above, as absolute real paths."""
    found = [str(own_state_home)] if own_state_home is not None else []
    with contextlib.suppress(GitMemoryError):
        found.append(str(state_home()))
    found += [str(root) for _name, root in default_roots()]
    for home in dict.fromkeys([host_env.get("HOME"), _account_home()]):
        if home:
            found += [str(Path(home) / name) for name in CREDENTIAL_STORES]
            found += _dotfiles(Path(home))
    found += _git_dirs(Path.cwd())
    found += SYSTEM_SECRETS
    return [os.path.realpath(path) for path in dict.fromkeys(found)]


def _account_home() -> str | None:
    """The home directory of our user account, which `HOME` may not name (sudo, tests)."""
    if sys.platform == "win32":
        return None
    with contextlib.suppress(KeyError):
        return pwd.getpwuid(os.getuid()).pw_dir
    return None


def _dotfiles(home: Path) -> list[str]:
    with contextlib.suppress(OSError):
        return sorted(str(entry) for entry in home.iterdir() if entry.name.startswith("."))
    return []


def _git_dirs(start: Path) -> list[str]:
    """The git directory (and common directory) of the repository around `start`."""
    for directory in [start, *start.parents]:
        dot_git = directory / ".git"
        if dot_git.is_dir():
            return [str(dot_git)]
        if dot_git.is_file():
            with contextlib.suppress(OSError, UnicodeDecodeError):
                line = dot_git.read_text(encoding="utf-8").strip()
                if line.startswith("gitdir:"):
                    git_dir = (directory / line[len("gitdir:") :].strip()).resolve()
                    common = git_dir / "commondir"
                    found = [str(git_dir)]
                    if common.is_file():
                        found.append(str((git_dir / common.read_text().strip()).resolve()))
                    return found
            return [str(dot_git)]
    return []
