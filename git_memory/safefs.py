"""No-follow file-system access below a worktree root, with directory file descriptors.

Every path component below the root is opened with `O_NOFOLLOW|O_DIRECTORY` relative to its
parent's fd, so a symlink planted anywhere on the path (by another user, a hostile checkout or a
race) is refused instead of followed. The promotion writer, `init`, `fmt` and the approved
projection reader all go through here.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import stat
import sys
from collections.abc import Callable, Iterator

from git_memory.errors import GitMemoryError
from git_memory.failpoints import failpoint
from git_memory.tempnames import TEMP_NAME, TEMP_SUFFIX

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of a warm
# `context` answer's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from pathlib import Path

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
NEW_DIR_MODE = 0o755


def symlink_refused(relpath: str) -> GitMemoryError:
    """The error for a symlink met on a path we would otherwise follow."""
    return GitMemoryError(
        "GM_SYMLINK_REFUSED",
        f"refusing to follow a symbolic link at {relpath!r}",
        hint="memory files and their directories must be plain files and directories",
    )


def split_relative(relpath: str) -> list[str]:
    """Split a worktree-relative POSIX path, refusing absolute paths and `..`."""
    # Plain string work: the pre-commit hook imports this module and never pathlib.
    parts = [part for part in relpath.split("/") if part not in ("", ".")]
    if relpath.startswith("/") or not parts or any(part == ".." for part in parts):
        raise GitMemoryError(
            "GM_PATH_OUTSIDE_WORKTREE",
            f"path is not a relative path inside the worktree: {relpath!r}",
        )
    return parts


def _open_child_dir(parent_fd: int, name: str, shown: str, create: bool) -> int:
    try:
        return os.open(name, DIR_FLAGS, dir_fd=parent_fd)
    except FileNotFoundError:
        if not create:
            raise
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, NEW_DIR_MODE, dir_fd=parent_fd)
        return _open_child_dir(parent_fd, name, shown, create=False)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            info = os.lstat(name, dir_fd=parent_fd)
            if stat.S_ISLNK(info.st_mode):
                raise symlink_refused(shown) from exc
            raise GitMemoryError(
                "GM_NOT_A_DIRECTORY", f"{shown!r} exists and is not a directory"
            ) from exc
        raise


@contextlib.contextmanager
def open_dir(root: Path, relparts: list[str], *, create: bool = False) -> Iterator[int]:
    """Yield an fd for `root/relparts…`, traversing every component with no-follow opens.

    `root` itself is opened normally: it is the realpath of the worktree.
    """
    fd = os.open(root, DIR_FLAGS & ~os.O_NOFOLLOW)
    try:
        walked: list[str] = []
        for name in relparts:
            walked.append(name)
            child = _open_child_dir(fd, name, "/".join(walked), create)
            os.close(fd)
            fd = child
        yield fd
    finally:
        os.close(fd)


def read_file_nofollow(root: Path, relpath: str, max_bytes: int | None = None) -> bytes | None:
    """Bytes of `root/relpath`, None when absent; symlinks anywhere on the path are refused,
    and so is a file larger than `max_bytes` (`GM_FILE_TOO_LARGE`, before it is read)."""
    parts = split_relative(relpath)
    try:
        with open_dir(root, parts[:-1]) as dir_fd:
            return read_at(dir_fd, parts[-1], relpath, max_bytes)
    except FileNotFoundError:
        return None


def read_at(dir_fd: int, name: str, shown: str, max_bytes: int | None = None) -> bytes | None:
    """Read regular file `name` in `dir_fd` without following a symlink; None when absent.
    A file larger than `max_bytes` is refused (`GM_FILE_TOO_LARGE`) before it is read."""
    try:
        # O_NONBLOCK: a FIFO planted at `name` must not hang the open (no effect on files).
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
        fd = os.open(name, flags, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise symlink_refused(shown) from exc
        raise
    # fstat before fdopen: a directory opens fine O_RDONLY but cannot be wrapped for reading.
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise GitMemoryError("GM_NOT_A_FILE", f"{shown!r} is not a regular file")
    with os.fdopen(fd, "rb") as handle:
        if max_bytes is None:
            return handle.read()
        # The size is checked before reading and again after (the file may grow meanwhile).
        data = b"" if info.st_size > max_bytes else handle.read(max_bytes + 1)
    if info.st_size > max_bytes or len(data) > max_bytes:
        raise GitMemoryError("GM_FILE_TOO_LARGE", f"{shown!r} is larger than {max_bytes} bytes")
    return data


_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2


@functools.cache
def _renameat2() -> Callable[[int, str, str, int], int] | None:
    """`renameat2` of libc as `(dir_fd, src, dst, flags) -> errno` (0: renamed), when this is
    Linux with a libc that has it.

    Looked up on the first rename, with ctypes imported here (a start-up seam): finding libc
    runs `ldconfig` and ctypes.util imports subprocess, costs every command importing this
    module (the pre-commit hook among them) would otherwise pay."""
    import ctypes  # noqa: PLC0415
    import ctypes.util  # noqa: PLC0415

    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        function = libc.renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    function.restype = ctypes.c_int

    def rename(dir_fd: int, src: str, dst: str, flags: int) -> int:
        if function(dir_fd, src.encode(), dir_fd, dst.encode(), flags) == 0:
            return 0
        return ctypes.get_errno()

    return rename


# What renameat2 answers on a kernel or file system without the flag asked for.
_UNSUPPORTED = (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP)


def rename_noreplace(dir_fd: int, src: str, dst: str) -> None:
    """Rename `src` to `dst` inside `dir_fd`, failing with FileExistsError if `dst` exists.

    Linux: `renameat2(RENAME_NOREPLACE)`. Elsewhere (or on file systems without it):
    `link` then `unlink`, which is equally exclusive because `link` never replaces.
    """
    renameat2 = _renameat2()
    if renameat2 is not None:
        err = renameat2(dir_fd, src, dst, _RENAME_NOREPLACE)
        if err == 0:
            return
        if err == errno.EEXIST:
            raise FileExistsError(errno.EEXIST, "target exists", dst)
        if err not in _UNSUPPORTED:
            raise OSError(err, os.strerror(err), dst)
    os.link(src, dst, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
    os.unlink(src, dir_fd=dir_fd)


def exchange(dir_fd: int, first: str, second: str) -> bool:
    """Swap the entries `first` and `second` inside `dir_fd` in one atomic step (both must
    exist): each name then holds what the other held, and at no moment is either absent.

    Linux: `renameat2(RENAME_EXCHANGE)`, which follows no symbolic link (it swaps directory
    entries). False, with nothing changed, where the system or the file system has no such
    call; FileNotFoundError when either entry is missing.
    """
    renameat2 = _renameat2()
    if renameat2 is None:
        return False
    err = renameat2(dir_fd, first, second, _RENAME_EXCHANGE)
    if err == 0:
        return True
    if err == errno.ENOENT:
        raise FileNotFoundError(err, os.strerror(err), first)
    if err in _UNSUPPORTED:
        return False
    raise OSError(err, os.strerror(err), second)


def write_temp_at(dir_fd: int, name: str, data: bytes, mode: int = 0o644) -> str:
    """Write `data` to a fresh temp file beside `name` (O_EXCL|O_NOFOLLOW, fsync).

    The name carries our pid, so `remove_stale_temps` can tell a crashed writer's leftover
    from a temp another live process is about to rename.
    """
    # Start-up seam (docs/architecture.md): the pre-commit hook imports this module and never
    # writes, so never needs secrets (random, hashlib, hmac).
    import secrets  # noqa: PLC0415

    temp = f".{name}.{os.getpid()}.{secrets.token_hex(6)}{TEMP_SUFFIX}"
    write_exclusive_at(dir_fd, temp, data, mode)
    return temp


def remove_stale_temps(dir_fd: int) -> list[str]:
    """Remove temps of ours in `dir_fd` whose writer process is gone; their names.

    A writer killed between writing its temp and renaming it leaves one behind; the next
    command that writes in the directory clears it. Only regular files are removed.
    """
    removed: list[str] = []
    for entry in os.scandir(dir_fd):
        match = TEMP_NAME.match(entry.name)
        if match is None or _writer_running(int(match.group(1))):
            continue
        if entry.is_file(follow_symlinks=False) and unlink_file_at(dir_fd, entry.name):
            removed.append(entry.name)
    return removed


_cleaned: set[tuple[int, int]] = set()


def _clean_once(dir_fd: int) -> None:
    """`remove_stale_temps` once per directory per process (a 1024-file plan writes often)."""
    info = os.fstat(dir_fd)
    key = (info.st_dev, info.st_ino)
    if key not in _cleaned:
        _cleaned.add(key)
        remove_stale_temps(dir_fd)


def _writer_running(pid: int) -> bool:
    # Start-up seam (docs/architecture.md): _proc imports subprocess, selectors and signal; the
    # recorded answers of `context` and `status` import this module (through paths) and
    # never clean temps.
    from git_memory._proc import process_exists  # noqa: PLC0415

    return pid == os.getpid() or process_exists(pid)


def write_exclusive_at(dir_fd: int, name: str, data: bytes, mode: int = 0o644) -> None:
    """Write `data` to a new file `name` in `dir_fd` (O_EXCL|O_NOFOLLOW) and fsync it.

    Unlike `write_temp_at` the name is the caller's, so a crash leaves an artifact whose name
    a journal can predict and clean up.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(name, flags, mode, dir_fd=dir_fd)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name, dir_fd=dir_fd)
        raise
    os.close(fd)


def write_new_file(path: str, data: bytes, mode: int) -> None:
    """Write `data` to a new file at `path` (`write_exclusive_at` in its directory): the one
    creator of private files. FileExistsError when anything, a symbolic link included, is
    already there."""
    directory, name = os.path.split(path)
    dir_fd = os.open(directory or ".", DIR_FLAGS & ~os.O_NOFOLLOW)
    try:
        write_exclusive_at(dir_fd, name, data, mode)
    finally:
        os.close(dir_fd)


def unlink_file_at(dir_fd: int, name: str) -> bool:
    """Remove regular file (or symlink entry) `name` in `dir_fd`; False when it was absent."""
    try:
        os.unlink(name, dir_fd=dir_fd)
    except FileNotFoundError:
        return False
    return True


def _install_at(
    dir_fd: int, name: str, data: bytes, mode: int, rename: Callable[[str, str], None]
) -> None:
    """Write a temp file beside `name`, `rename(temp, name)` it there, fsync the directory.

    A failed rename removes the temp, so nothing but `name` (or nothing) is ever left, and the
    first write of a process into a directory clears temps a killed writer left there.
    """
    _clean_once(dir_fd)
    temp = write_temp_at(dir_fd, name, data, mode)
    try:
        failpoint("safefs.before-rename")
        rename(temp, name)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp, dir_fd=dir_fd)
        raise
    os.fsync(dir_fd)


def create_file_at(dir_fd: int, name: str, data: bytes, mode: int = 0o644) -> None:
    """Atomically create `name` in `dir_fd`; FileExistsError if something is already there."""
    _install_at(dir_fd, name, data, mode, lambda src, dst: rename_noreplace(dir_fd, src, dst))


def replace_file_at(dir_fd: int, name: str, data: bytes, mode: int | None = None) -> None:
    """Atomically replace regular file `name` in `dir_fd` (temp + rename, dir fsync).

    The caller has verified the current content (blob CAS) right before; a symlink at `name`
    is refused rather than replaced.
    """
    try:
        info = os.lstat(name, dir_fd=dir_fd)
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise (
            symlink_refused(name)
            if stat.S_ISLNK(info.st_mode)
            else GitMemoryError("GM_NOT_A_FILE", f"{name!r} is not a regular file")
        )
    keep_mode = mode if mode is not None else (stat.S_IMODE(info.st_mode) if info else 0o644)
    _install_at(
        dir_fd,
        name,
        data,
        keep_mode,
        lambda src, dst: os.rename(src, dst, src_dir_fd=dir_fd, dst_dir_fd=dir_fd),
    )
