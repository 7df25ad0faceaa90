"""Opening transcripts safely: regular files only, and bounded zstd inflation.

Transcript folders are other programs' data and may hold anything: a FIFO named `*.jsonl`
would block a plain `open` forever, a symlink to `/dev/zero` never ends, and a small
`.jsonl.zst` can inflate to gigabytes. So every transcript is opened without following a
final symlink and without blocking, must be a regular file (checked on the open descriptor,
not on the name), and a compressed one is inflated as a stream under a ratio and an absolute
cap. A refused source becomes a diagnostic of the sync, never a failure or a hang.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from typing import BinaryIO

# Inflation may reach this many times the compressed size (but always this floor)...
MAX_RATIO = 200
MIN_INFLATE_CAP = 64 * 1024 * 1024
# ...and never more than this, whatever the compressed size.
MAX_INFLATED = 1024 * 1024 * 1024
# A line this long in a compressed rollout ends its reading (records are at most 8 MiB).
MAX_INFLATED_LINE = 16 * 1024 * 1024
# ...and more lines than this end it too (a few KiB of zstd inflate to millions of empty
# lines, each costing the parser a step; real rollouts hold far fewer records).
MAX_INFLATED_LINES = 1_000_000
CHUNK = 1 << 20


class SourceRefused(Exception):
    """A transcript that is not read (a diagnostic code and a message without content)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def open_regular(path: str, buffering: int = -1) -> BinaryIO:
    """Open `path` for reading when it is a regular file (final symlinks are refused)."""
    fd = _open_descriptor(path)
    try:
        _regular_size(fd)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb", buffering=buffering)
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str, limit: int) -> bytes:
    """The bytes of `path`, opened as `open_regular` opens it, but never more than `limit` + 1
    of them (more than `limit` means the file is larger)."""
    # Straight from the descriptor: a file object costs more system calls than reading a
    # small session document does (OpenCode keeps one file per message and per part), and a
    # read sized by the file allocates no more than it holds.
    fd = _open_descriptor(path)
    try:
        data = os.read(fd, min(_regular_size(fd), limit) + 1)
        if not data or len(data) > limit:
            return data
        more: list[bytes] = []
        total = len(data)
        # On to the end of the file: it may have grown since it was measured.
        while total <= limit and (chunk := os.read(fd, min(CHUNK, limit + 1 - total))):
            more.append(chunk)
            total += len(chunk)
        return data + b"".join(more) if more else data
    finally:
        os.close(fd)


def _open_descriptor(path: str) -> int:
    # Non-blocking, so a FIFO under a transcript's name cannot hang the open.
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC
    try:
        return os.open(path, flags)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK):
            raise SourceRefused("not-a-regular-file", "a symbolic link is not read") from exc
        raise


def _regular_size(fd: int) -> int:
    """The size of the open file, which must be a regular one (else `SourceRefused`)."""
    status = os.fstat(fd)
    if not stat.S_ISREG(status.st_mode):
        raise SourceRefused("not-a-regular-file", f"not a regular file ({_kind(status.st_mode)})")
    return status.st_size


def is_regular(path: str) -> bool:
    """Whether `path` itself (not a symlink's target) is a regular file."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a directory" if stat.S_ISDIR(mode) else "a special file"


class Skipped:
    """A complete line longer than the cap, read past without being kept: its length and
    its first and last `probe` bytes (what a file's checkpoint digests may cover)."""

    __slots__ = ("length", "prefix", "suffix")

    def __init__(self, length: int, prefix: bytes, suffix: bytes) -> None:
        self.length = length
        self.prefix = prefix
        self.suffix = suffix


def capped_lines(handle: BinaryIO, cap: int, probe: int = 4096) -> Iterator[bytes | Skipped]:
    """The lines of `handle` (each with its newline; the unterminated tail last), never
    holding more than `cap` bytes of one line: a longer complete line is read through to its
    newline in chunks and passed on as `Skipped`; a longer unterminated tail ends the lines
    (it is not complete, so nothing would read it)."""
    while line := handle.readline(cap + 1):
        if len(line) <= cap or line.endswith(b"\n"):
            yield line
            continue
        length, prefix, suffix = len(line), line[:probe], line[-probe:]
        while chunk := handle.readline(CHUNK):
            length += len(chunk)
            suffix = (suffix + chunk)[-probe:]
            if chunk.endswith(b"\n"):
                yield Skipped(length, prefix, suffix)
                break


def inflate_cap(compressed_size: int) -> int:
    """How many bytes a compressed transcript of this size may inflate to."""
    return min(MAX_INFLATED, max(MIN_INFLATE_CAP, MAX_RATIO * compressed_size))


def inflated_lines(handle: BinaryIO) -> Iterator[bytes]:
    """The lines of a zstd stream (each with its newline; the unterminated tail last),
    inflated chunk by chunk; raises `SourceRefused` past the cap."""
    # Start-up seam (docs/architecture.md): only compressed rollouts need zstandard.
    import zstandard  # noqa: PLC0415

    cap = inflate_cap(os.fstat(handle.fileno()).st_size)
    reader = zstandard.ZstdDecompressor().stream_reader(handle, read_across_frames=True)
    pending = bytearray()
    total = lines = 0
    while True:
        chunk = reader.read(CHUNK)
        if not chunk:
            break
        total += len(chunk)
        if total > cap:
            raise SourceRefused(
                "decompression-limit", f"inflates beyond {cap} bytes (a decompression bomb?)"
            )
        pending += chunk
        lines += chunk.count(b"\n")
        if lines > MAX_INFLATED_LINES:
            raise SourceRefused(
                "decompression-limit", f"inflates to more than {MAX_INFLATED_LINES} lines"
            )
        start = 0
        while (end := pending.find(b"\n", start)) >= 0:
            yield bytes(pending[start : end + 1])
            start = end + 1
        del pending[:start]
        if len(pending) > MAX_INFLATED_LINE:
            raise SourceRefused("decompression-limit", "a line longer than 16 MiB")
    if pending:
        yield bytes(pending)


def inflate(handle: BinaryIO) -> bytes:
    """The whole inflated content of a zstd transcript, under the same caps."""
    return b"".join(inflated_lines(handle))
