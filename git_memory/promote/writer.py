"""The no-follow conditional writer of promotion: compare-and-swap one file, resumably.

Every change is a *conditional replace*: "if the target holds `expect`, make it hold `install`"
(`None` meaning absent). It is used forward (old → planned bytes) and for rollback (planned →
old bytes). The target is first moved aside to a *hold* artifact with a no-replace rename and
the moved bytes are verified, so a third party's edit that races in is caught instead of being
overwritten; the planned bytes are staged in a *new* artifact (`O_EXCL|O_NOFOLLOW`, fsync) and
installed with a no-replace rename, then the directory is fsynced.

Artifact names are derived from the plan id, the path and the direction, so after a crash the
same call finds what a killed process left behind and finishes (or undoes) it: calling
`conditional_replace` again is always safe. Directories are traversed from the worktree root
with dir fds and `O_NOFOLLOW|O_DIRECTORY` (`git_memory.safefs`): a symlink anywhere is refused.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from git_memory import safefs
from git_memory.tempnames import PROMOTION_ARTIFACT_PREFIX

ARTIFACT_PREFIX = PROMOTION_ARTIFACT_PREFIX


class TargetDrift(Exception):
    """The target did not hold the expected bytes; `preserved` says a third party's bytes
    were found and left in place (they are never overwritten)."""

    def __init__(self, path: str, reason: str, *, preserved: bool = False) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
        self.preserved = preserved


@dataclass(frozen=True)
class Swap:
    """One conditional replace: at `path`, `expect` → `install` (None = absent)."""

    path: str
    expect: bytes | None
    install: bytes | None
    token: str

    @property
    def hold_name(self) -> str:
        """Where the target's previous bytes wait while the new bytes go in."""
        return f"{ARTIFACT_PREFIX}{self.token}.hold"

    @property
    def staged_name(self) -> str:
        """Where the bytes to install are written and fsynced before the rename."""
        return f"{ARTIFACT_PREFIX}{self.token}.new"


def artifact_token(plan_id: str, path: str, direction: str) -> str:
    """Deterministic artifact token of one file of one plan in one direction."""
    material = "\0".join((plan_id, path, direction)).encode()
    return hashlib.sha256(material).hexdigest()[:32]


def read_target(root: Path, path: str) -> bytes | None:
    """The target's bytes read no-follow from the worktree root, or None when absent."""
    return safefs.read_file_nofollow(root, path)


def conditional_replace(root: Path, swap: Swap) -> None:
    """Make `swap.path` hold `swap.install` if it holds `swap.expect` (resumable).

    Raises `TargetDrift` when the target holds anything else; nothing of ours is then left
    on disk and a third party's bytes stay where they are.
    """
    parts = safefs.split_relative(swap.path)
    with safefs.open_dir(root, parts[:-1], create=swap.install is not None) as dir_fd:
        _swap_in_dir(dir_fd, parts[-1], swap)


def _swap_in_dir(dir_fd: int, name: str, swap: Swap) -> None:
    current = safefs.read_at(dir_fd, name, swap.path)
    if current == swap.install:
        _finish(dir_fd, swap)
        return
    held = safefs.read_at(dir_fd, swap.hold_name, swap.path)
    if held is None:
        _move_aside(dir_fd, name, swap, current)
    elif held != swap.expect:
        _put_back(dir_fd, name, swap, "the held bytes are not the expected ones")
    elif current is not None:
        _give_way(dir_fd, swap, "the target was created while it was held aside")
    _install(dir_fd, name, swap)
    _finish(dir_fd, swap)


def _move_aside(dir_fd: int, name: str, swap: Swap, current: bytes | None) -> None:
    if current != swap.expect:
        raise TargetDrift(swap.path, "the target changed", preserved=current is not None)
    if swap.expect is None:
        return
    try:
        safefs.rename_noreplace(dir_fd, name, swap.hold_name)
    except FileNotFoundError as exc:
        raise TargetDrift(swap.path, "the target vanished") from exc
    # The rename moved whatever was there at that instant: verify it is what we checked.
    if safefs.read_at(dir_fd, swap.hold_name, swap.path) != swap.expect:
        _put_back(dir_fd, name, swap, "the target changed while it was moved aside")


def _put_back(dir_fd: int, name: str, swap: Swap, reason: str) -> None:
    """A third party's bytes are in the hold: return them to the target, then give up."""
    try:
        safefs.rename_noreplace(dir_fd, swap.hold_name, name)
    except FileExistsError:
        # Two third-party versions: the one at the target is the newer; keep it.
        safefs.unlink_file_at(dir_fd, swap.hold_name)
    os.fsync(dir_fd)
    raise TargetDrift(swap.path, reason, preserved=True)


def _give_way(dir_fd: int, swap: Swap, reason: str) -> None:
    """Someone else's file now sits at the target: keep it, drop our hold (the journal has
    the old bytes) and report."""
    safefs.unlink_file_at(dir_fd, swap.hold_name)
    safefs.unlink_file_at(dir_fd, swap.staged_name)
    os.fsync(dir_fd)
    raise TargetDrift(swap.path, reason, preserved=True)


def _install(dir_fd: int, name: str, swap: Swap) -> None:
    if swap.install is None:
        return
    # A staged artifact is always ours (token name, O_EXCL); one left by a crash is stale.
    safefs.unlink_file_at(dir_fd, swap.staged_name)
    safefs.write_exclusive_at(dir_fd, swap.staged_name, swap.install)
    try:
        safefs.rename_noreplace(dir_fd, swap.staged_name, name)
    except FileExistsError:
        _give_way(dir_fd, swap, "the target was created while the new bytes were staged")
    os.fsync(dir_fd)
    if safefs.read_at(dir_fd, name, swap.path) != swap.install:
        raise TargetDrift(swap.path, "the target changed right after the write", preserved=True)


def _finish(dir_fd: int, swap: Swap) -> None:
    removed = safefs.unlink_file_at(dir_fd, swap.staged_name)
    removed = safefs.unlink_file_at(dir_fd, swap.hold_name) or removed
    if removed:
        os.fsync(dir_fd)


def undo_forward(root: Path, swap: Swap) -> None:
    """Settle an interrupted forward swap before rolling it back.

    A target moved aside and not yet replaced is put back (its bytes are the expected old
    ones); a staged copy is dropped. Afterwards the target holds the old bytes, the new
    bytes, or a third party's bytes, and no artifact of `swap` remains.
    """
    parts = safefs.split_relative(swap.path)
    try:
        with safefs.open_dir(root, parts[:-1]) as dir_fd:
            safefs.unlink_file_at(dir_fd, swap.staged_name)
            if safefs.read_at(dir_fd, swap.hold_name, swap.path) is not None:
                try:
                    safefs.rename_noreplace(dir_fd, swap.hold_name, parts[-1])
                except FileExistsError:
                    safefs.unlink_file_at(dir_fd, swap.hold_name)
            os.fsync(dir_fd)
    except FileNotFoundError:
        return
