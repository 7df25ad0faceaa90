"""One read of the approved memory for assembly: files, projection, freshness, entries.

The snapshot syncs the approved projection (stat-only when no entry file changed), reads the
doctrine, scenes and skills, and asks the freshness check for stale ids. Entry rows are
loaded only when asked for, so a run whose inputs are unchanged (`inputs_key` equal to the
cached one) never parses ten thousand entries.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import git_memory
from git_memory.assemble.cache import cache_path
from git_memory.assemble.entries import ApprovedEntry
from git_memory.assemble.entry_cache import approved_entries
from git_memory.assemble.freshness import Freshness, no_stale_entries
from git_memory.assemble.sources import MemoryFiles, read_memory_files
from git_memory.contracts.canonical import digest, sha256_hex
from git_memory.errors import GitMemoryError
from git_memory.paths import read_private, write_private_atomic
from git_memory.store.approved import list_approved_entries
from git_memory.store.fts_queries import search_approved

if TYPE_CHECKING:
    from git_memory.store.session import Workspace

# Bumped whenever the rendering changes, so cached blocks of an older rendering are not reused.
RENDERING = "git-memory-context-block@3"


@dataclass
class MemorySnapshot:
    """The approved memory of one worktree as assembly sees it."""

    files: MemoryFiles
    tree_digest: str
    coverage: str
    stale_ids: frozenset[str]
    state: Workspace
    scopes_path: Path | None = None  # where the scope list of the last inputs is kept
    entries_path: Path | None = None  # where derived entries are kept (assemble/entry_cache.py)
    _entries: list[ApprovedEntry] | None = field(default=None, repr=False)

    def approved(self) -> list[ApprovedEntry]:
        """Approved entries that nothing supersedes (deprecated ones are not in the rows)."""
        if self._entries is None:
            rows = list_approved_entries(self.state.db, self.state.owner)
            save = self.coverage == "complete"
            entries = approved_entries(rows, self.entries_path, save=save)
            self._entries = [entry for entry in entries if not entry.superseded]
        return self._entries

    def fresh(self) -> tuple[list[ApprovedEntry], list[str]]:
        """(entries to render, ids of approved entries held back as stale)."""
        entries = self.approved()
        fresh = [entry for entry in entries if entry.id not in self.stale_ids]
        return fresh, [entry.id for entry in entries if entry.id in self.stale_ids]

    def scopes(self) -> list[str]:
        """The directories that fresh approved entries are scoped to, sorted.

        Kept privately with the inputs key, so an unchanged run loads no entry for it.
        """
        key = self.inputs_key(kind="scopes")
        if self.scopes_path is not None:
            try:
                document = json.loads(read_private(self.scopes_path))
                if document["key"] == key and all(isinstance(s, str) for s in document["scopes"]):
                    return list(document["scopes"])
            except (OSError, ValueError, KeyError, TypeError, GitMemoryError):
                pass
        scopes = sorted({e.scope for e in self.fresh()[0] if e.scope is not None})
        if self.scopes_path is not None and self.coverage == "complete":
            document = {"key": key, "scopes": scopes}
            write_private_atomic(self.scopes_path, json.dumps(document).encode("utf-8"))
        return scopes

    def matching(self, query: str, limit: int) -> list[str]:
        """Ids of approved entries matching `query`, best BM25 first."""
        rows = search_approved(self.state.db, self.state.owner, query, limit)
        return [row.id for row in rows]

    def inputs_key(self, **settings: object) -> str:
        """Digest of everything a rendering depends on, plus the caller's `settings`."""
        files = self.files
        return digest(
            {
                "rendering": RENDERING,
                "version": git_memory.__version__,
                "entries": self.tree_digest,
                "doctrine": sha256_hex(files.doctrine) if files.doctrine is not None else None,
                "scenes": {name: sha256_hex(data) for name, data in files.scenes.items()},
                "skills": {name: sha256_hex(data) for name, data in files.skills.items()},
                "stale": sorted(self.stale_ids),
                "settings": settings,
            }
        )


def read_snapshot(workspace: Workspace, freshness: Freshness = no_stale_entries) -> MemorySnapshot:
    """The approved memory of the operation's workspace: its projection synced, the memory
    files read and the stale ids asked of `freshness`."""
    worktree = workspace.worktree
    sync = workspace.synced()
    return MemorySnapshot(
        scopes_path=cache_path(worktree.state_home, "scopes", workspace.binding.worktree_key),
        entries_path=cache_path(worktree.state_home, "entries", workspace.binding.worktree_key),
        files=read_memory_files(worktree.root, worktree.memory_root),
        tree_digest=sync.source_tree_digest,
        coverage=sync.coverage,
        stale_ids=frozenset(freshness(workspace)),
        state=workspace,
    )
