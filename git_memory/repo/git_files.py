"""Git's own files, read without starting git: where a worktree's git directories are, the
entries of an index file and loose objects.

The pre-commit hook runs on every commit that stages a memory file, and a session-start hook
on every session: starting `git` (and importing `subprocess` to do it) for each question was
most of their cost (docs/performance.md). Only the plain layouts are read here, as
gitformat-index(5) and gitformat-loose(5) describe them. Anything else — a split or sparse
index, an index version or a required extension this module does not know, an entry that does
not parse, an object that is packed, borrowed from an alternate or damaged — answers None, and
the caller asks git, which stays the authority.
"""

from __future__ import annotations

import os
import zlib

# Hex object ids of the empty blob, which git knows without storing it (an `add -N` entry).
EMPTY_BLOB = {
    20: "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
    32: "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813",
}
OID_SIZES = {"sha1": 20, "sha256": 32}

_STAT_SIZE = 40  # ctime, mtime (seconds and nanoseconds), dev, ino, mode, uid, gid, size
_EXTENDED_FLAG = 0x4000
_NAME_MASK = 0x0FFF
_LONGEST_HEADER = 32  # "blob " and a decimal size, then NUL

# (path, mode, hex object id) of one stage-0 index entry.
IndexEntry = tuple[str, int, str]


def read_small_text(path: str) -> str | None:
    """The first 4 KiB of a small git file (HEAD, a `.git` file, `commondir`); None when absent."""
    try:
        with open(path, "rb") as handle:
            return handle.read(4096).decode("utf-8", "surrogateescape")
    except OSError:
        return None


def discover_git_dir(start: str) -> tuple[str, str, str] | None:
    """(worktree root, git dir, common git dir) of the worktree containing `start`, found as
    git finds them (a `.git` directory, or a `.git` file naming one), without starting git:
    one stat per level. Callers that must agree with git treat any doubt as a miss."""
    directory = start
    while True:
        dot_git = os.path.join(directory, ".git")
        if os.path.isdir(dot_git):
            git_dir = dot_git
            break
        if os.path.isfile(dot_git):
            text = read_small_text(dot_git) or ""
            if not text.startswith("gitdir: "):
                return None
            git_dir = os.path.join(directory, text[len("gitdir: ") :].strip())
            break
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent
    common = read_small_text(os.path.join(git_dir, "commondir"))
    common_dir = os.path.join(git_dir, common.strip()) if common else git_dir
    return directory, os.path.realpath(git_dir), os.path.realpath(common_dir)


def index_entries(path: str, oid_size: int) -> list[IndexEntry] | None:
    """The stage-0 entries of the index file at `path`, in index order; None for a layout
    left to git (see the module docstring) or an index that cannot be read."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    try:
        return _parse_index(data, oid_size)
    except (IndexError, ValueError, UnicodeDecodeError):
        return None


def _parse_index(data: bytes, oid_size: int) -> list[IndexEntry] | None:
    if data[:4] != b"DIRC":
        return None
    version = int.from_bytes(data[4:8], "big")
    count = int.from_bytes(data[8:12], "big")
    if version not in (2, 3, 4):
        return None
    entries: list[IndexEntry] = []
    position = 12
    previous = b""
    end_of_entries = len(data) - oid_size
    for _ in range(count):
        start = position
        mode = int.from_bytes(data[start + 24 : start + 28], "big")
        oid_end = start + _STAT_SIZE + oid_size
        oid = data[start + _STAT_SIZE : oid_end].hex()
        flags = int.from_bytes(data[oid_end : oid_end + 2], "big")
        position = oid_end + 2
        if flags & _EXTENDED_FLAG:
            if version < 3:
                return None
            position += 2
        if version == 4:
            strip, position = _varint(data, position)
            if strip > len(previous):
                return None
            name_end = data.index(b"\0", position)
            raw_path = previous[: len(previous) - strip] + data[position:name_end]
            position = name_end + 1
        else:
            name_end = data.index(b"\0", position)
            raw_path = data[position:name_end]
            # Entries are padded with 1–8 NULs to a multiple of eight bytes.
            position = start + ((name_end - start + 8) & ~7)
        length = flags & _NAME_MASK
        if position > end_of_entries or not raw_path:
            return None
        if length != _NAME_MASK and length != len(raw_path):
            return None
        previous = raw_path
        if mode & 0o170000 == 0o040000:
            return None  # a sparse directory entry: git expands those
        if (flags >> 12) & 3 == 0:
            entries.append((os.fsdecode(raw_path), mode, oid))
    return entries if _extensions_known(data, position, end_of_entries) else None


def _varint(data: bytes, position: int) -> tuple[int, int]:
    """Git's offset encoding of a number (each continuation adds one before shifting)."""
    byte = data[position]
    position += 1
    value = byte & 0x7F
    while byte & 0x80:
        byte = data[position]
        position += 1
        value = ((value + 1) << 7) | (byte & 0x7F)
    return value, position


def _extensions_known(data: bytes, position: int, end: int) -> bool:
    """Whether every extension after the entries may be ignored: optional ones (an upper-case
    signature: cached trees, resolve-undo, untracked cache, offsets) may; a required one
    (`link` of a split index, `sdir` of a sparse one, anything unknown) may not."""
    while position < end:
        signature = data[position : position + 4]
        size = int.from_bytes(data[position + 4 : position + 8], "big")
        if len(signature) < 4 or not 65 <= signature[0] <= 90:
            return False
        position += 8 + size
    return position == end


def loose_blob(objects_dir: str, oid: str) -> bytes | None:
    """The content of blob `oid` when it is a loose object of `objects_dir`; None otherwise
    (packed, in an alternate, not a blob or damaged: git reads and reports those)."""
    if oid in EMPTY_BLOB.values():
        return b""
    try:
        with open(os.path.join(objects_dir, oid[:2], oid[2:]), "rb") as handle:
            compressed = handle.read()
    except OSError:
        return None
    inflater = zlib.decompressobj()
    try:
        head = inflater.decompress(compressed, _LONGEST_HEADER)
        kind, space, rest = head.partition(b" ")
        size_text, nul, body = rest.partition(b"\0")
        if kind != b"blob" or not space or not nul or not size_text.isdigit():
            return None
        size = int(size_text)
        if len(body) > size:
            return None
        # Never inflate past the size the header declares.
        body += inflater.decompress(inflater.unconsumed_tail, size - len(body) + 1)
    except zlib.error:
        return None
    if len(body) != size or not inflater.eof:
        return None
    return body
