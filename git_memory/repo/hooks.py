"""Hook shims and the index.json merge driver in the repository git really uses.

The hooks directory is whatever `git rev-parse --git-path hooks` prints, asked of git itself:
libgit2 does not see `GIT_CONFIG_GLOBAL`, `git -c` or `GIT_CONFIG_COUNT`, and a hook installed
where git does not look never runs. A foreign hook is never clobbered: it is renamed
`<hook>.legacy` and the shim runs it first. Our shims carry a marker line, so install upgrades
them and uninstall removes only them. Every file is written through the no-follow temp file
and rename of `safefs`: a name planted as a symlink is replaced, never written through.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pygit2

from git_memory.errors import GitMemoryError
from git_memory.paths import packaged_file
from git_memory.repo.binding import Worktree
from git_memory.repo.gitcli import git_path
from git_memory.repo.memory_tree import is_tracked_dir
from git_memory.safefs import (
    create_file_at,
    open_dir,
    read_at,
    read_file_nofollow,
    remove_stale_temps,
    replace_file_at,
)

HOOK_NAMES = ("pre-commit",)
MARKER = re.compile(r"^# managed-by: git-memory hook shim v(\d+)$", re.MULTILINE)
DRIVER_NAME = "git-memory-index"
DRIVER_COMMAND = "git memory merge-index %O %A %B %P"
DRIVER_LABEL = "git memory index.json merge driver"
HOOK_MODE = 0o755


@dataclass(frozen=True)
class HookInfo:
    """One hook slot: `state` is installed | outdated | foreign | absent."""

    name: str
    state: str
    legacy: bool
    action: str = ""


def hooks_dir(worktree: Worktree) -> Path:
    """The hooks directory git uses for this worktree, as git itself resolves it."""

    return git_path(worktree.root, "hooks")


def shown_hooks_dir(worktree: Worktree, directory: Path) -> str:
    """The hooks dir for output, without the absolute location of the checkout."""
    home = Path(os.path.realpath(os.path.expanduser("~")))
    for base, label in ((worktree.root, ""), (worktree.common_dir, "$GIT_COMMON_DIR/")):
        try:
            return label + directory.relative_to(base).as_posix()
        except ValueError:
            continue
    try:
        return "~/" + directory.relative_to(home).as_posix()
    except ValueError:
        return directory.as_posix()  # the user's own configuration, outside the checkout


@contextlib.contextmanager
def open_hooks_dir(worktree: Worktree, directory: Path, *, create: bool) -> Iterator[int]:
    """A directory fd for `directory`: no-follow below the worktree or the git dir."""

    # Inside the git directory (reached through a symlinked `.git` or not) it is git's own
    # ground; below the worktree every component is opened without following links.
    real = Path(os.path.realpath(directory))
    for base, path in ((worktree.common_dir, real), (worktree.root, directory)):
        try:
            parts = list(path.relative_to(base).parts)
        except ValueError:
            continue
        with open_dir(base, parts, create=create) as fd:
            yield fd
        return
    try:
        if create:
            directory.mkdir(parents=True, exist_ok=True)
        with open_dir(directory, []) as fd:
            yield fd
    except (NotADirectoryError, FileExistsError) as exc:
        raise GitMemoryError(
            "GM_NOT_A_DIRECTORY",
            f"the hooks directory {shown_hooks_dir(worktree, directory)!r} is not a directory",
        ) from exc


def template_path(package_dir: Path | None = None) -> Path:
    """The shim template: `git_memory/_hooks/` in a wheel, `<checkout>/hooks/` when editable."""
    found = packaged_file("hooks", "pre-commit", package_dir)
    if found is not None:
        return found
    raise GitMemoryError(
        "GM_HOOK_TEMPLATE_MISSING",
        "the hook shim template is not installed with git-memory",
        hint="reinstall git-team-memory",
    )


def render_shim(name: str) -> str:
    """The shim text for hook `name`: this interpreter first, then `git-memory` on PATH."""
    text = template_path().read_text(encoding="utf-8")
    return text.replace("hook_name=pre-commit", f"hook_name={name}").replace(
        "@PYTHON@", shlex.quote(sys.executable)
    )


def hook_state(dir_fd: int, name: str) -> HookInfo:
    """The state of one hook slot (read without following symlinks)."""

    legacy = _lexists(dir_fd, f"{name}.legacy")
    info = _lstat(dir_fd, name)
    if info is None:
        return HookInfo(name, "absent", legacy)
    if not stat.S_ISREG(info.st_mode):
        return HookInfo(name, "foreign", legacy)
    text = (read_at(dir_fd, name, name) or b"").decode("utf-8", errors="replace")
    if MARKER.search(text) is None:
        return HookInfo(name, "foreign", legacy)
    return HookInfo(name, "installed" if text == render_shim(name) else "outdated", legacy)


def directory_state(worktree: Worktree, directory: Path, name: str) -> HookInfo:
    """`hook_state` of the hooks directory; absent when the directory does not exist."""
    try:
        with open_hooks_dir(worktree, directory, create=False) as fd:
            return hook_state(fd, name)
    except FileNotFoundError:
        return HookInfo(name, "absent", False)


def _lstat(dir_fd: int, name: str) -> os.stat_result | None:
    try:
        return os.lstat(name, dir_fd=dir_fd)
    except FileNotFoundError:
        return None


def _lexists(dir_fd: int, name: str) -> bool:
    return _lstat(dir_fd, name) is not None


def check_untracked(worktree: Worktree, directory: Path, force: bool) -> None:
    """Refuse to write into a hooks directory tracked in this repository (unless forced)."""
    try:
        relpath = directory.resolve().relative_to(worktree.root).as_posix()
    except ValueError:
        return
    if not force and is_tracked_dir(worktree.repository, relpath):
        raise GitMemoryError(
            "GM_HOOKS_DIR_TRACKED",
            f"core.hooksPath points at {relpath}/, which is tracked in this repository",
            hint="add the hook to that directory through your normal review, or pass --force",
        )


def install_hook(dir_fd: int, name: str) -> HookInfo:
    """Install or upgrade one shim, chaining a foreign hook as `<name>.legacy`."""

    remove_stale_temps(dir_fd)
    before = hook_state(dir_fd, name)
    action = {"absent": "installed", "outdated": "upgraded", "installed": "unchanged"}.get(
        before.state, "chained"
    )
    if before.state == "foreign":
        if before.legacy:
            raise GitMemoryError(
                "GM_HOOK_LEGACY_EXISTS",
                f"{name} is a foreign hook and {name}.legacy already exists",
                hint="merge or remove one of them, then run git memory hooks install again",
            )
        # Renames the entry itself: a symlink stays a symlink, its target is not touched.
        os.rename(name, f"{name}.legacy", src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    if before.state != "installed":
        replace_file_at(dir_fd, name, render_shim(name).encode("utf-8"), HOOK_MODE)
    return HookInfo(name, "installed", before.legacy or before.state == "foreign", action)


def uninstall_hook(dir_fd: int, name: str) -> HookInfo:
    """Remove our shim and put a chained `<name>.legacy` back; a foreign hook is left alone."""
    before = hook_state(dir_fd, name)
    if before.state in ("absent", "foreign"):
        return HookInfo(name, before.state, before.legacy, "left alone")
    os.unlink(name, dir_fd=dir_fd)
    if before.legacy:
        os.rename(f"{name}.legacy", name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        return HookInfo(name, "foreign", False, "restored legacy hook")
    return HookInfo(name, "absent", False, "removed")


def _local_config(worktree: Worktree) -> pygit2.Config:
    return pygit2.Config(str(worktree.common_dir / "config"))


def driver_registered(worktree: Worktree) -> bool:
    """Whether the merge driver is in git config and `.gitattributes` routes index.json to it."""
    configured = worktree.config_value(f"merge.{DRIVER_NAME}.driver") == DRIVER_COMMAND
    return configured and attributes_line(worktree) in _attributes(worktree).split("\n")


def attributes_line(worktree: Worktree) -> str:
    """The `.gitattributes` line routing index.json to the merge driver."""
    return f"{worktree.memory_root}/index.json merge={DRIVER_NAME}"


def _attributes(worktree: Worktree) -> str:

    data = read_file_nofollow(worktree.root, ".gitattributes")
    return "" if data is None else data.decode("utf-8")


def register_driver(worktree: Worktree) -> str | None:
    """Write the merge driver into the repository config and `.gitattributes`; returns
    "created" or "changed" when `.gitattributes` was written, None when it already routed
    index.json to the driver."""
    config = _local_config(worktree)
    config[f"merge.{DRIVER_NAME}.name"] = DRIVER_LABEL
    config[f"merge.{DRIVER_NAME}.driver"] = DRIVER_COMMAND
    current = _attributes(worktree)
    line = attributes_line(worktree)
    if line in current.split("\n"):
        return None
    existed = os.path.lexists(worktree.root / ".gitattributes")
    separator = "" if current == "" or current.endswith("\n") else "\n"
    _write_attributes(worktree, current + separator + line + "\n")
    return "changed" if existed else "created"


def unregister_driver(worktree: Worktree) -> None:
    """Remove the merge driver from config and its line from `.gitattributes`."""
    config = _local_config(worktree)
    for key in (f"merge.{DRIVER_NAME}.name", f"merge.{DRIVER_NAME}.driver"):
        with contextlib.suppress(KeyError):
            del config[key]
    current = _attributes(worktree)
    lines = current.split("\n")
    line = attributes_line(worktree)
    if line in lines:
        _write_attributes(worktree, "\n".join(kept for kept in lines if kept != line))


def _write_attributes(worktree: Worktree, text: str) -> None:

    with open_dir(worktree.root, []) as dir_fd:
        if os.path.lexists(worktree.root / ".gitattributes"):
            replace_file_at(dir_fd, ".gitattributes", text.encode("utf-8"))
        else:
            create_file_at(dir_fd, ".gitattributes", text.encode("utf-8"))
