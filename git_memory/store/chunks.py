"""Chunks of transcript selected for extraction, repository bindings and extraction cursors."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from git_memory.contracts.canonical import canonical_json
from git_memory.contracts.extraction import OwnerKeys
from git_memory.database import Row
from git_memory.store.db import StateDB, now_ms

CHUNK_STATUSES = ("pending", "drafted", "extracted", "stale")


@dataclass(frozen=True)
class ChunkRow:
    """One chunk row."""

    chunk_ref: str
    owner: OwnerKeys
    session_key: str
    turn_range: str
    chunk_digest: str
    status: str
    provenance: dict[str, Any]


def _chunk(row: Row) -> ChunkRow:
    return ChunkRow(
        chunk_ref=row["chunk_ref"],
        owner=OwnerKeys(repository_key=row["repository_key"], worktree_key=row["worktree_key"]),
        session_key=row["session_key"],
        turn_range=row["turn_range"],
        chunk_digest=row["chunk_digest"],
        status=row["status"],
        provenance=json.loads(row["provenance_json"]),
    )


def upsert_chunk(
    db: StateDB,
    *,
    chunk_ref: str,
    owner: OwnerKeys,
    session_key: str,
    turn_range: str,
    chunk_digest: str,
    provenance: dict[str, Any] | None = None,
) -> ChunkRow:
    """Record a chunk as pending; an existing chunk keeps its state (idempotent planning)."""
    with db.write():
        db.execute(
            "INSERT OR IGNORE INTO chunks (chunk_ref, repository_key, worktree_key, session_key,"
            " turn_range, chunk_digest, provenance_json, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                chunk_ref,
                owner.repository_key,
                owner.worktree_key,
                session_key,
                turn_range,
                chunk_digest,
                canonical_json(provenance or {}).decode(),
                now_ms(),
            ),
        )
        found = get_chunk(db, chunk_ref)
    assert found is not None
    return found


def get_chunk(db: StateDB, chunk_ref: str) -> ChunkRow | None:
    """The chunk, or None."""
    row = db.one("SELECT * FROM chunks WHERE chunk_ref = ?", (chunk_ref,))
    return None if row is None else _chunk(row)


def set_chunk_status(db: StateDB, chunk_ref: str, status: str) -> bool:
    """Move a chunk to `status`; False when the chunk is unknown."""
    if status not in CHUNK_STATUSES:
        raise ValueError(f"unknown chunk status {status!r}")
    with db.write():
        return (
            db.execute(
                "UPDATE chunks SET status = ?, updated_at = ? WHERE chunk_ref = ?",
                (status, now_ms(), chunk_ref),
            )
            == 1
        )


def bind_repository(db: StateDB, binding: dict[str, Any], root_realpath: str) -> OwnerKeys:
    """Record (or refresh) a RepositoryBinding@v1 with the worktree's absolute root path.

    The absolute path lives only here, in the private DB, never in contracts or files.
    """
    owner = OwnerKeys(repository_key=binding["repositoryKey"], worktree_key=binding["worktreeKey"])
    identity = binding["commonDirectoryIdentity"]
    with db.write():
        db.execute(
            "INSERT INTO repository_bindings (repository_key, worktree_key,"
            " public_repository_identity, root_realpath, root_realpath_digest,"
            " common_dir_device, common_dir_inode, memory_root, bound_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (repository_key, worktree_key)"
            " DO UPDATE SET public_repository_identity = excluded.public_repository_identity,"
            " root_realpath = excluded.root_realpath,"
            " root_realpath_digest = excluded.root_realpath_digest,"
            " common_dir_device = excluded.common_dir_device,"
            " common_dir_inode = excluded.common_dir_inode, memory_root = excluded.memory_root",
            (
                owner.repository_key,
                owner.worktree_key,
                binding.get("publicRepositoryIdentity"),
                root_realpath,
                binding["rootRealpathDigest"],
                identity["device"],
                identity["inode"],
                binding["memoryRoot"],
                now_ms(),
            ),
        )
    return owner


def get_cursor(db: StateDB, owner: OwnerKeys, source: str) -> dict[str, Any] | None:
    """The extraction cursor of `source` for the owner (batch extraction resumes from it)."""
    value = db.scalar(
        "SELECT cursor_json FROM extraction_cursors WHERE repository_key = ? AND worktree_key = ?"
        " AND source = ?",
        (owner.repository_key, owner.worktree_key, source),
    )
    return None if value is None else dict(json.loads(value))


def set_cursor(db: StateDB, owner: OwnerKeys, source: str, cursor: dict[str, Any]) -> None:
    """Store the extraction cursor of `source` for the owner."""
    with db.write():
        db.execute(
            "INSERT INTO extraction_cursors (repository_key, worktree_key, source, cursor_json,"
            " updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (repository_key, worktree_key,"
            " source) DO UPDATE SET cursor_json = excluded.cursor_json,"
            " updated_at = excluded.updated_at",
            (
                owner.repository_key,
                owner.worktree_key,
                source,
                canonical_json(cursor).decode(),
                now_ms(),
            ),
        )
