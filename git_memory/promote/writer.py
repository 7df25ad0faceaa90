"""The no-follow conditional writer of promotion: compare-and-swap one file, resumably.

Every change is a *conditional replace*: "if the target holds `expect`, make it hold `install`"
(`None` meaning absent). It is used forward (old → planned bytes) and for rollback (planned →
old bytes). The planned bytes are first staged in a *new* artifact beside the target
(`O_EXCL|O_NOFOLLOW`, fsync). Then:
- an existing file is **replaced in one atomic step**: the artifact and the target are
  exchanged (`renameat2(RENAME_EXCHANGE)`), so at every moment the path holds the old bytes
  or the new ones, never nothing. The exchange moves whatever sat at the target at that
  instant into the artifact; those bytes are checked against `expect`, and a third party's
  edit that raced in is exchanged straight back, so it is never overwritten. Where the system
  has no exchange, the target is linked aside (a *hold* artifact, the path untouched), checked,
  and the staged file renamed over it: still one atomic step for readers, with a window of
  microseconds in which a third party's save could be replaced;
- a new file is installed with a no-replace rename (a file that appeared meanwhile is kept);
- a file to remove is moved aside to the hold, checked, then deleted.
The directory is fsynced after each step that changes it.

Artifact names are derived from the plan id, the path and the direction, so after a crash the
same call finds what a killed process left behind and finishes (or undoes) it: calling
`conditional_replace` again is always safe, and no step of that recovery leaves the path
without its old or new bytes. Directories are traversed from the worktree root with dir fds
and `O_NOFOLLOW|O_DIRECTORY` (`git_memory.safefs`): a symlink anywhere is refused.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from git_memory import safefs
from git_memory.failpoints import failpoint
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
        _finish(dir_fd, name, swap)
        return
    if safefs.read_at(dir_fd, swap.hold_name, swap.path) is not None:
        _resume_hold(dir_fd, name, swap, current)
    elif current != swap.expect:
        raise TargetDrift(swap.path, "the target changed", preserved=current is not None)
    elif swap.install is None:
        _move_aside(dir_fd, name, swap)
    elif swap.expect is None:
        _create(dir_fd, name, swap)
    else:
        _replace(dir_fd, name, swap)
    _finish(dir_fd, name, swap)


def _stage(dir_fd: int, swap: Swap, install: bytes) -> None:
    # A staged artifact is always ours (token name, O_EXCL); one left by a crash is stale.
    safefs.unlink_file_at(dir_fd, swap.staged_name)
    safefs.write_exclusive_at(dir_fd, swap.staged_name, install)
    failpoint("promote.write.staged")


def _replace(dir_fd: int, name: str, swap: Swap) -> None:
    """Exchange the staged bytes with the target's, then check what was displaced."""
    assert swap.install is not None
    _stage(dir_fd, swap, swap.install)
    try:
        exchanged = safefs.exchange(dir_fd, swap.staged_name, name)
    except FileNotFoundError as exc:
        safefs.unlink_file_at(dir_fd, swap.staged_name)
        raise TargetDrift(swap.path, "the target vanished") from exc
    if not exchanged:
        _replace_over_hold(dir_fd, name, swap)
        return
    os.fsync(dir_fd)
    failpoint("promote.write.swapped")
    if safefs.read_at(dir_fd, swap.staged_name, swap.path) != swap.expect:
        _exchange_back(dir_fd, name, swap, "the target changed while the new bytes went in")


def _exchange_back(dir_fd: int, name: str, swap: Swap, reason: str) -> None:
    """The artifact holds a third party's bytes, displaced by our exchange: swap them back
    into the target, drop our copy and give up."""
    safefs.exchange(dir_fd, swap.staged_name, name)
    safefs.unlink_file_at(dir_fd, swap.staged_name)
    os.fsync(dir_fd)
    raise TargetDrift(swap.path, reason, preserved=True)


def _replace_over_hold(dir_fd: int, name: str, swap: Swap) -> None:
    """Without an exchange: link the target aside, check it, rename the new bytes over it."""
    try:
        os.link(name, swap.hold_name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError as exc:
        safefs.unlink_file_at(dir_fd, swap.staged_name)
        raise TargetDrift(swap.path, "the target vanished") from exc
    held = os.stat(swap.hold_name, dir_fd=dir_fd, follow_symlinks=False)
    if safefs.read_at(dir_fd, swap.hold_name, swap.path) != swap.expect or not _same_file(
        dir_fd, name, held
    ):
        _give_way(dir_fd, swap, "the target changed while the new bytes went in")
    os.rename(swap.staged_name, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    os.fsync(dir_fd)
    failpoint("promote.write.swapped")


def _same_file(dir_fd: int, name: str, held: os.stat_result) -> bool:
    try:
        now = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)


def _create(dir_fd: int, name: str, swap: Swap) -> None:
    assert swap.install is not None
    _stage(dir_fd, swap, swap.install)
    _install_staged(dir_fd, name, swap)


def _install_staged(dir_fd: int, name: str, swap: Swap) -> None:
    try:
        safefs.rename_noreplace(dir_fd, swap.staged_name, name)
    except FileExistsError:
        _give_way(dir_fd, swap, "the target was created while the new bytes were staged")
    os.fsync(dir_fd)
    failpoint("promote.write.swapped")
    if safefs.read_at(dir_fd, name, swap.path) != swap.install:
        raise TargetDrift(swap.path, "the target changed right after the write", preserved=True)


def _move_aside(dir_fd: int, name: str, swap: Swap) -> None:
    """Removing the target: move it to the hold (deleted by `_finish`) and check it."""
    try:
        safefs.rename_noreplace(dir_fd, name, swap.hold_name)
    except FileNotFoundError as exc:
        raise TargetDrift(swap.path, "the target vanished") from exc
    os.fsync(dir_fd)
    failpoint("promote.write.held")
    # The rename moved whatever was there at that instant: verify it is what we checked.
    if safefs.read_at(dir_fd, swap.hold_name, swap.path) != swap.expect:
        _put_back(dir_fd, name, swap, "the target changed while it was moved aside")


def _resume_hold(dir_fd: int, name: str, swap: Swap, current: bytes | None) -> None:
    """A hold artifact is left: a removal (or a replace by an earlier version of this writer,
    which moved the target aside first) was cut short. Finish it or give way."""
    held = safefs.read_at(dir_fd, swap.hold_name, swap.path)
    if held != swap.expect:
        _put_back(dir_fd, name, swap, "the held bytes are not the expected ones")
    if current is not None:
        if current == swap.expect:
            return  # a link aside (no exchange) was cut short: the target is intact
        _give_way(dir_fd, swap, "the target was created while it was held aside")
    if swap.install is not None:
        _stage(dir_fd, swap, swap.install)
        _install_staged(dir_fd, name, swap)


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
    """Someone else's file now sits at the target: keep it, drop our artifacts (the journal
    has the old bytes) and report."""
    safefs.unlink_file_at(dir_fd, swap.hold_name)
    safefs.unlink_file_at(dir_fd, swap.staged_name)
    os.fsync(dir_fd)
    raise TargetDrift(swap.path, reason, preserved=True)


def _finish(dir_fd: int, name: str, swap: Swap) -> None:
    """Drop the artifacts of a swap whose target holds the new bytes. The staged artifact
    then holds our new bytes (never exchanged) or the old ones (exchanged); anything else is
    a third party's, displaced by an exchange whose check a crash cut short: it goes back."""
    if _displaced_third_party(dir_fd, name, swap):
        _exchange_back(dir_fd, name, swap, "the target changed while the new bytes went in")
    removed = safefs.unlink_file_at(dir_fd, swap.staged_name)
    removed = safefs.unlink_file_at(dir_fd, swap.hold_name) or removed
    if removed:
        os.fsync(dir_fd)


def _displaced_third_party(dir_fd: int, name: str, swap: Swap) -> bool:
    """Whether an exchange put the new bytes at the target and a third party's bytes in the
    staged artifact (a crash came before the check). Before an exchange the staged artifact
    may hold a torn copy of ours, but the target then does not hold the new bytes."""
    staged = safefs.read_at(dir_fd, swap.staged_name, swap.path)
    if staged is None or staged in (swap.expect, swap.install):
        return False
    return safefs.read_at(dir_fd, name, swap.path) == swap.install


def undo_forward(root: Path, swap: Swap) -> None:
    """Settle an interrupted forward swap before rolling it back.

    A third party's bytes displaced by an exchange go back to the target; a target moved
    aside and not yet replaced is put back (its bytes are the expected old ones); a staged
    copy (our new bytes, or the old ones an exchange displaced: the journal has them) is
    dropped. Afterwards the target holds the old bytes, the new bytes, or a third party's
    bytes, and no artifact of `swap` remains.
    """
    parts = safefs.split_relative(swap.path)
    try:
        with safefs.open_dir(root, parts[:-1]) as dir_fd:
            if _displaced_third_party(dir_fd, parts[-1], swap):
                safefs.exchange(dir_fd, swap.staged_name, parts[-1])
            safefs.unlink_file_at(dir_fd, swap.staged_name)
            if safefs.read_at(dir_fd, swap.hold_name, swap.path) is not None:
                try:
                    safefs.rename_noreplace(dir_fd, swap.hold_name, parts[-1])
                except FileExistsError:
                    safefs.unlink_file_at(dir_fd, swap.hold_name)
            os.fsync(dir_fd)
    except FileNotFoundError:
        return
