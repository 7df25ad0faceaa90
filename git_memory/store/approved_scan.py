"""Scanning the worktree's entry files for the approved projection (no-follow reads).

Each `entries/*.md` under the memory root is listed and `lstat`ed through directory fds,
read with `O_NOFOLLOW` (its fstat must equal the listing, else the scan drifted), lint-gated
with the lint engine and parsed with the entry parser into the row the projection stores.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from git_memory.contracts.canonical import canonical_json, sha256_hex
from git_memory.errors import FormatError, GitMemoryError
from git_memory.formats.entry import Entry
from git_memory.formats.memory_file import load_memory_file
from git_memory.lint.engine import lint_bytes
from git_memory.repo.memory_tree import list_dir
from git_memory.safefs import open_dir, split_relative

SOURCE_TREE_FORMAT = "git-memory-source-tree@v2"
ENTRIES_DIR = "entries"
MAX_SEARCH_BYTES = 64 * 1024
SUMMARY_CHARS = 240

Signature = tuple[int, int, int, int, int]  # device, inode, size, mtime_ns, ctime_ns


@dataclass(frozen=True)
class Scanned:
    path: str  # memory-root relative, e.g. entries/x.md
    signature: Signature | None  # None for something that is not a regular file
    content_digest: str | None
    row: dict[str, Any] | None
    problem: dict[str, str] | None


def signature(info: os.stat_result) -> Signature:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def list_entries(root: Path, memory_root: str) -> dict[str, Signature | None]:
    """`entries/<name>.md` → stat signature (None when not a regular file: a symbolic link
    is listed, and its scan records the problem)."""
    listing = list_dir(root, [*split_relative(memory_root), ENTRIES_DIR])
    return {
        f"{ENTRIES_DIR}/{item.name}": signature(item.info) if item.is_file else None
        for item in listing
        if item.name.endswith(".md")
    }


def scan_one(root: Path, memory_root: str, path: str, listed: Signature | None) -> Scanned:
    if listed is None:
        return Scanned(path, None, None, None, _problem("GM_NOT_A_FILE", "not a regular file"))
    try:
        data, sig = read_nofollow(root, memory_root, path)
    except FileNotFoundError:
        return Scanned(path, None, None, None, _problem("GM_SYNC_DRIFT", "file vanished"))
    except GitMemoryError as exc:
        return Scanned(path, None, None, None, _problem(exc.code, exc.message))
    if sig != listed:
        return Scanned(path, sig, None, None, _problem("GM_SYNC_DRIFT", "file changed"))
    content_digest = sha256_hex(data)
    row, problem = _entry_row(memory_root, path, data, content_digest)
    return Scanned(path, sig, content_digest, row, problem)


def read_nofollow(root: Path, memory_root: str, path: str) -> tuple[bytes, Signature]:
    parts = [*split_relative(memory_root), *split_relative(path)]
    with open_dir(root, parts[:-1]) as dir_fd:
        try:
            fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise GitMemoryError("GM_SYMLINK_REFUSED", "symbolic link refused") from exc
            raise
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise GitMemoryError("GM_NOT_A_FILE", "not a regular file")
            return handle.read(), signature(info)


def _problem(code: str, message: str) -> dict[str, str]:
    return {"code": code, "message": message}


def _entry_row(
    memory_root: str, path: str, data: bytes, content_digest: str
) -> tuple[dict[str, Any] | None, dict[str, str] | None]:
    """Lint-gate and parse one entry file into its approved row (or a problem)."""

    blocking = [f for f in lint_bytes(path, data) if f.blocks]
    if blocking:
        first = blocking[0]
        return None, _problem(first.code, f"line {first.line}: {first.message}")
    try:
        entry = load_memory_file(path, data)
    except FormatError as exc:
        return None, _problem(exc.code, str(exc))
    assert isinstance(entry, Entry)  # listed as entries/<name>.md
    return _row_of(entry, f"{memory_root}/{path}", content_digest), None


def _row_of(entry: Entry, worktree_path: str, content_digest: str) -> dict[str, Any]:
    frontmatter = {
        "id": entry.id,
        "type": entry.type,
        "status": entry.status,
        "priority": entry.priority,
        "confidence": entry.confidence,
        "provenance_strength": entry.provenance_strength,
        "claim_support": entry.claim_support,
        "limitations": list(entry.limitations),
        "scope": entry.scope,
        "scene": entry.scene,
        "occurred": list(entry.occurred),
        "evidence": entry.evidence.to_json(),
        "superseded_by": entry.superseded_by,
    }
    scene = entry.scene or ""
    return {
        "entry_id": entry.id,
        "path": worktree_path,
        "type": entry.type,
        "scene": scene,
        "status": entry.status,
        "priority": entry.priority,
        "revision": int(content_digest[:13], 16) + 1,
        "content_digest": content_digest,
        "frontmatter_json": canonical_json(frontmatter).decode(),
        "body_text": entry.body,
        "summary": " ".join(entry.body.split())[:SUMMARY_CHARS],
        "searchable_text": approved_search_text(entry.id, entry.type, scene, entry.body),
    }


def approved_search_text(entry_id: str, entry_type: str, scene: str, body: str) -> str:
    """`[id, type, scene, body]` (non-empty ones) joined by newlines, at most 64 KiB."""
    text = "\n".join(part for part in (entry_id, entry_type, scene, body) if part)
    encoded = text.encode("utf-8")
    if len(encoded) <= MAX_SEARCH_BYTES:
        return text
    return encoded[:MAX_SEARCH_BYTES].decode("utf-8", errors="ignore")


def source_tree_digest(scanned: list[tuple[str, str | None]]) -> str:
    """Digest of the sorted `(path, contentDigest)` list of every listed entry file: sha256
    of its JSON (`[format, [[path, contentDigest], …]]`, ASCII, no spaces), made in one
    encoder call rather than by walking ten thousand objects."""
    document = [SOURCE_TREE_FORMAT, sorted(scanned)]
    return sha256_hex(json.dumps(document, separators=(",", ":")).encode("ascii"))
