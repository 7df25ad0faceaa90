"""Hook shims and the index.json merge driver in the repository git really uses (docs/hooks.md).

The hooks directory is what `git rev-parse --git-path hooks` prints: `core.hooksPath` when
set (relative to the worktree root), else `<common git dir>/hooks`. A foreign hook is never
clobbered: it is renamed `<hook>.legacy` and the shim runs it first. Our shims carry a
marker line, so install upgrades them and uninstall removes only them.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

import pygit2

from git_memory.errors import GitMemoryError
from git_memory.repo.binding import Worktree
from git_memory.repo.memory_tree import is_tracked_dir

HOOK_NAMES = ("pre-commit",)
MARKER = re.compile(r"^# managed-by: git-memory hook shim v(\d+)$", re.MULTILINE)
DRIVER_NAME = "git-memory-index"
DRIVER_COMMAND = "git memory merge-index %O %A %B %P"
DRIVER_LABEL = "git memory index.json merge driver"


@dataclass(frozen=True)
class HookInfo:
    """One hook slot: `state` is installed | outdated | foreign | absent."""

    name: str
    state: str
    legacy: bool
    action: str = ""


def hooks_dir(worktree: Worktree) -> Path:
    """The hooks directory git uses for this worktree."""
    configured = worktree.config_value("core.hooksPath")
    if configured:
        path = Path(os.path.expanduser(configured))
        return path if path.is_absolute() else worktree.root / path
    return worktree.common_dir / "hooks"


def shown_hooks_dir(worktree: Worktree, directory: Path) -> str:
    """The hooks dir for output, without the absolute location of the checkout."""
    for base, label in ((worktree.root, ""), (worktree.common_dir, "$GIT_COMMON_DIR/")):
        try:
            return label + directory.relative_to(base).as_posix()
        except ValueError:
            continue
    return directory.name


def template_path(package_dir: Path | None = None) -> Path:
    """The shim template: `git_memory/_hooks/` in a wheel, `<checkout>/hooks/` when editable."""
    package = package_dir or Path(__file__).resolve().parent.parent
    for candidate in (package / "_hooks" / "pre-commit", package.parent / "hooks" / "pre-commit"):
        if candidate.is_file():
            return candidate
    raise GitMemoryError(
        "GM_HOOK_TEMPLATE_MISSING",
        "the hook shim template is not installed with git-memory",
        hint="reinstall git-team-memory",
    )


def render_shim(name: str) -> str:
    """The shim text for hook `name`, falling back to this interpreter when not on PATH."""
    import git_memory

    text = template_path().read_text(encoding="utf-8")
    package = Path(git_memory.__file__).resolve().parent
    return (
        text.replace("hook_name=pre-commit", f"hook_name={name}")
        .replace("@PYTHON@", shlex.quote(sys.executable))
        .replace("@PACKAGE@", shlex.quote(str(package)))
    )


def hook_state(directory: Path, name: str) -> HookInfo:
    """The state of one hook slot."""
    path = directory / name
    legacy = os.path.lexists(directory / f"{name}.legacy")
    if not os.path.lexists(path):
        return HookInfo(name, "absent", legacy)
    if path.is_symlink() or not path.is_file():
        return HookInfo(name, "foreign", legacy)
    text = path.read_text(encoding="utf-8", errors="replace")
    if MARKER.search(text) is None:
        return HookInfo(name, "foreign", legacy)
    return HookInfo(name, "installed" if text == render_shim(name) else "outdated", legacy)


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


def install_hook(directory: Path, name: str) -> HookInfo:
    """Install or upgrade one shim, chaining a foreign hook as `<name>.legacy`."""
    before = hook_state(directory, name)
    path = directory / name
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
        os.rename(path, directory / f"{name}.legacy")
    if before.state != "installed":
        directory.mkdir(parents=True, exist_ok=True)
        temp = directory / f".{name}.git-memory.tmp"
        temp.write_text(render_shim(name), encoding="utf-8")
        temp.chmod(0o755)
        os.replace(temp, path)
    return HookInfo(name, "installed", before.legacy or before.state == "foreign", action)


def uninstall_hook(directory: Path, name: str) -> HookInfo:
    """Remove our shim and put a chained `<name>.legacy` back; a foreign hook is left alone."""
    before = hook_state(directory, name)
    if before.state in ("absent", "foreign"):
        return HookInfo(name, before.state, before.legacy, "left alone")
    os.unlink(directory / name)
    if before.legacy:
        os.rename(directory / f"{name}.legacy", directory / name)
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
    from git_memory.safefs import read_file_nofollow

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
    from git_memory.safefs import create_file_at, open_dir, replace_file_at

    with open_dir(worktree.root, []) as dir_fd:
        if os.path.lexists(worktree.root / ".gitattributes"):
            replace_file_at(dir_fd, ".gitattributes", text.encode("utf-8"))
        else:
            create_file_at(dir_fd, ".gitattributes", text.encode("utf-8"))
