"""Codex's memories folder as Codex lays it out, legacy per-directory buckets included.

Codex keeps `<CODEX_HOME>/memories/`, one handbook for all of a person's projects (`codex.py`)
beside the files of the table below. Older versions kept one folder per working directory,
`memories/<bucket>/memory/`, `<bucket>` being the sha256 of the canonical directory path in
hex, cut to its first 16 characters (codex-rs/core/src/memories/layout.rs; the first
versions kept all 64, codex-rs/core/src/memories/mod.rs), and a user-wide one,
`memories/user/memory/`. A bucket's `MEMORY.md` is "the merged durable memory registry for
this CWD", a file whose template prescribed no shape (codex-rs/core/templates/memories/
consolidation.md of those versions); `consolidated.md` is the older name of that
consolidation output, which every version of the code only deletes or migrates
(`LEGACY_CONSOLIDATED_FILENAME`). Both are read as plain Markdown notes of their directory;
nothing else of a bucket is.

Each entry Codex writes is one row below with what harvest does with it; anything else is a
layout this reader does not know: `doctor` names it (`codex_check.py`) and harvest reads
nothing from it.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from git_memory.errors import GitMemoryError
from git_memory.repo.evidence import RepositoryFacts
from git_memory.sessions import index
from git_memory.sessions.query import attributed_cwds

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree

TEMPLATE = "codex-rs/memories/write/templates/memories/consolidation.md"
STORAGE = "codex-rs/memories/write/src/storage.rs"
WORKSPACE = "codex-rs/memories/write/src/workspace.rs"
LAYOUT = "codex-rs/core/src/memories/layout.rs"
OLD_TEMPLATE = "codex-rs/core/templates/memories/consolidation.md"
OLD_STORAGE = "codex-rs/core/src/memories/storage.rs"
BUCKET_FOLDER = "memory"
_BUCKET = re.compile(r"[0-9a-f]{16}|[0-9a-f]{64}")


@dataclass(frozen=True)
class Entry:
    """A file or folder Codex writes in a memories folder: whether harvest reads it, what it
    is, and the Codex source that writes or names it."""

    name: str
    read: bool
    what: str
    source: str


ROOT_ENTRIES = (
    Entry("MEMORY.md", True, "the handbook; this repository's task groups are read", TEMPLATE),
    Entry("memory_summary.md", False, "a profile of the person, first line `v1`", TEMPLATE),
    Entry("raw_memories.md", False, "every project's raw memories", STORAGE),
    Entry("raw_memories.yaml", False, "the same, as one version wrote them", OLD_STORAGE),
    Entry("rollout_summaries", False, "session recaps; a header names its session", STORAGE),
    Entry("skills", False, "procedures Codex drafted for itself", TEMPLATE),
    Entry("extensions", False, "notes other tools leave for consolidation", TEMPLATE),
    Entry("phase2_workspace_diff.md", False, "the consolidation's own diff", WORKSPACE),
    Entry(".gitignore", False, "keeps that diff out of the history below", WORKSPACE),
    Entry(".git", False, "Codex's history of the folder", WORKSPACE),
    Entry("consolidated.md", False, "a registry copied from `user/`; no directory", LAYOUT),
    Entry("user", False, "the older user-wide folder: about a person", LAYOUT),
)
BUCKET_ENTRIES = (
    Entry("MEMORY.md", True, "the directory's registry, read as plain notes", OLD_TEMPLATE),
    Entry("consolidated.md", True, "the registry's older name, read as plain notes", LAYOUT),
    Entry("memory_summary.md", False, "a routing map of the directory's sessions", OLD_STORAGE),
    Entry("raw_memories", False, "per-session raw memories", OLD_STORAGE),
    Entry("raw_memories.md", False, "the directory's raw memories", OLD_STORAGE),
    Entry("trace_summaries", False, "per-session summaries", OLD_TEMPLATE),
    Entry("rollout_summaries", False, "per-session recaps", OLD_STORAGE),
    Entry("skills", False, "procedures Codex drafted for itself", OLD_TEMPLATE),
)
BUCKET_READ = tuple(entry.name for entry in BUCKET_ENTRIES if entry.read)


def bucket_names(directory: str) -> tuple[str, str]:
    """The bucket folder names Codex gave `directory`: 16 hex characters, or all 64."""
    digest = hashlib.sha256(directory.encode()).hexdigest()
    return digest[:16], digest


def worktree_buckets(worktree: Worktree, memories: Path, roots: tuple[Path, ...]) -> list[str]:
    """The buckets present for a root or a directory inside it, a root's first."""
    present = {name for name in _names(memories) if _BUCKET.fullmatch(name)}
    if not present:
        return []
    found: dict[str, None] = {}
    for directory in _directories(worktree, roots):
        found.update((name, None) for name in bucket_names(directory) if name in present)
    return list(found)


def bucket_files(memories: Path, buckets: list[str]) -> list[tuple[Path, str]]:
    """(path, name inside the store) of each registry the buckets hold."""
    found = []
    for bucket in buckets:
        folder = memories / bucket / BUCKET_FOLDER
        for name in BUCKET_READ:
            path = folder / name
            if path.exists() or path.is_symlink():
                found.append((path, f"{bucket}/{BUCKET_FOLDER}/{name}"))
    return found


def unknown_entries(memories: Path, buckets: list[str]) -> list[str]:
    """Entries of the folder, and of this worktree's buckets, that no row above names."""
    known = {entry.name for entry in ROOT_ENTRIES}
    found = [n for n in _names(memories) if n not in known and not _BUCKET.fullmatch(n)]
    in_bucket = {entry.name for entry in BUCKET_ENTRIES}
    for bucket in buckets:
        found += [f"{bucket}/{n}" for n in _names(memories / bucket) if n != BUCKET_FOLDER]
        folder = memories / bucket / BUCKET_FOLDER
        found += [f"{bucket}/{BUCKET_FOLDER}/{n}" for n in _names(folder) if n not in in_bucket]
    return found


def _names(folder: Path) -> list[str]:
    try:
        return sorted(entry.name for entry in folder.iterdir())
    except OSError:
        return []


def _directories(worktree: Worktree, roots: tuple[Path, ...]) -> list[str]:
    """The roots, the directories git tracks below them, and the directories below them
    where indexed sessions ran: every directory Codex may have named a bucket after."""
    tracked = RepositoryFacts(worktree.repository).tracked
    inside = sorted({path.rsplit("/", 1)[0] for path in tracked if "/" in path})
    found = [str(root) for root in roots]
    found += [os.path.join(root, folder) for root in roots for folder in inside]
    return found + _indexed_directories(worktree)


def _indexed_directories(worktree: Worktree) -> list[str]:
    if not index.index_path(worktree.state_home).exists():
        return []
    try:
        with index.reader(worktree.state_home) as conn:
            return attributed_cwds(conn, worktree.root)
    except GitMemoryError as exc:
        if exc.code != "GM_SESSIONS_INDEX_UNREADABLE":
            raise
        return []
