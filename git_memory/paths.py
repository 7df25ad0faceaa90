"""The private state home and the one helper for private atomic writes.

State home precedence (docs/configuration.md): `$GIT_MEMORY_HOME`, then `git config
memory.home`, then the XDG state directory. Directories are 0700 and files 0600 because the
state holds transcript text and the origin secret.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import time

from git_memory.errors import GitMemoryError
from git_memory.safefs import write_new_file

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of a warm
# `context` answer's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from pathlib import Path

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600

SECRET_FILE = "secret.json"
SESSIONS_DB = "sessions.sqlite3"
MEMORY_STATE_DB = "memory-state.sqlite3"
ARTIFACTS_DIR = "artifacts"
LOGS_DIR = "logs"


def state_home(configured: str | None = None) -> Path:
    """Resolve the state home without creating it.

    `configured` is the value of `git config memory.home`, looked up by the caller (only
    `repo/` reads git config).
    """
    # Start-up seam (docs/architecture.md): the pre-commit hook and the recorded answers load
    # this module and never need pathlib.
    from pathlib import Path  # noqa: PLC0415

    return Path(state_home_text(configured))


def state_home_text(configured: str | None = None) -> str:
    """`state_home` as text: the pre-commit hook resolves it without importing pathlib."""
    env = os.environ.get("GIT_MEMORY_HOME")
    if env:
        return _absolute_home(env, "GIT_MEMORY_HOME")
    if configured:
        return _absolute_home(configured, "memory.home")
    plain = _plain_default_home()
    if plain is not None:
        return plain
    # Start-up seam (docs/architecture.md): only an unconfigured state home outside the plain
    # cases needs platformdirs.
    from platformdirs import user_state_dir  # noqa: PLC0415

    return user_state_dir("git-memory", appauthor=False)


def _plain_default_home() -> str | None:
    """platformdirs' `user_state_dir("git-memory", appauthor=False)` where every platformdirs
    4.x agrees on it, without importing platformdirs (≈ 10 ms of every hook run and session
    start, docs/performance.md): on Linux `$XDG_STATE_HOME/git-memory` (an absolute value)
    or `~/.local/state/git-memory`, on macOS `~/Library/Application Support/git-memory`
    (`XDG_STATE_HOME` unset), with an absolute `HOME`. None elsewhere: platformdirs answers."""
    home = os.environ.get("HOME", "")
    xdg = os.environ.get("XDG_STATE_HOME", "")
    if not home.startswith("/") or home != home.strip() or xdg != xdg.strip():
        return None
    if "ANDROID_DATA" in os.environ or "ANDROID_ROOT" in os.environ:
        return None  # platformdirs may take this for Android
    if sys.platform == "linux" and (not xdg or xdg.startswith("/")):
        return os.path.join(xdg or os.path.expanduser("~/.local/state"), "git-memory")
    if sys.platform == "darwin" and not xdg:
        return os.path.join(os.path.expanduser("~/Library/Application Support"), "git-memory")
    return None


def _absolute_home(value: str, source: str) -> str:
    # A relative home would resolve against whatever directory the command runs in: inside a
    # checkout that puts transcript text and the origin secret where `git add -A` finds them.
    path = os.path.expanduser(value)
    if not os.path.isabs(path):
        raise GitMemoryError(
            "GM_STATE_HOME_RELATIVE",
            f"{source} must be an absolute path: {value!r}",
            hint=f"set {source} to an absolute directory outside every worktree",
        )
    return path


def ensure_private_dir(path: Path) -> Path:
    """Create `path` (and parents) as 0700 directories; tighten an existing one we own."""
    missing = [parent for parent in (path, *path.parents) if not parent.exists()]
    for directory in reversed(missing):
        # Every directory we create is private, not only the last one (mkdir(parents=True)
        # would give the intermediate ones the umask's mode).
        with contextlib.suppress(FileExistsError):
            directory.mkdir(mode=PRIVATE_DIR_MODE)
    if path.is_symlink() or not path.is_dir():
        raise GitMemoryError(
            "GM_STATE_HOME_INVALID",
            f"state directory {path.name!r} is not a plain directory",
            hint="remove it or point GIT_MEMORY_HOME at another directory",
        )
    if path.stat().st_mode & 0o777 != PRIVATE_DIR_MODE:
        os.chmod(path, PRIVATE_DIR_MODE)
    return path


def write_private_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` as a 0600 file: temp file in the same dir, fsync, rename.

    A crash leaves either the old file or the new one, never a torn file.
    """
    # Start-up seam (docs/architecture.md): the pre-commit hook and the recorded answers load
    # this module and never write, so never need secrets (random, hashlib, hmac).
    import secrets  # noqa: PLC0415

    directory = ensure_private_dir(path.parent)
    tmp = directory / f".{path.name}.{os.getpid()}.{secrets.token_hex(8)}.tmp"
    write_new_file(str(tmp), data, PRIVATE_FILE_MODE)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(directory)


def fsync_dir(directory: Path) -> None:
    """fsync a directory so a rename inside it survives a power loss."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_private(path: Path) -> bytes:
    """Read a private state file, refusing symlinks (another user could plant one)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # the final component is a symlink
            raise GitMemoryError(
                "GM_SYMLINK_REFUSED", f"state file {path.name!r} is a symbolic link"
            ) from exc
        raise
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def write_crash_log(text: str, *, home: Path | None = None, label: str = "crash") -> Path | None:
    """Write a traceback under `<state home>/logs/` (0600) and return its path; None when it
    cannot be written, because reporting a crash must never raise another error."""
    try:
        logs = ensure_private_dir((home or state_home()) / LOGS_DIR)
        path = logs / f"{label}-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}.log"
        write_private_atomic(path, text.encode("utf-8", "replace"))
    except Exception:
        return None
    return path


def packaged_file(folder: str, relative: str, package: Path | None = None) -> Path | None:
    """A file shipped beside the package: `git_memory/_<folder>/<relative>` in an installed
    wheel, `<checkout>/<folder>/<relative>` in an editable install; None when neither."""
    # Start-up seam (docs/architecture.md): the pre-commit hook imports this module and never
    # needs pathlib.
    from pathlib import Path  # noqa: PLC0415

    package = package or Path(__file__).resolve().parent
    for candidate in (package / f"_{folder}" / relative, package.parent / folder / relative):
        if candidate.is_file():
            return candidate
    return None
