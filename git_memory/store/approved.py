"""The approved projection (`sync-approved`): the worktree's entries, indexed for search.

A sync lists `<memory root>/entries/*.md` through no-follow directory fds, reads each file
(checking its fstat against the listing), lint-gates and parses it, and computes the source
tree digest over every listed file. It then re-stats the directory: any drift means the scan
was not a snapshot, so coverage becomes `partial`, the generation stays and the scan is
retried. A clean scan with a new digest replaces the owner's rows (and, by trigger, their FTS)
in one transaction and bumps the generation; the same digest changes nothing.

Cheap re-syncs: the stat signature of every file is kept; when the listing and every
signature are unchanged the sync stops after the `lstat`s. A file modified within
`RACY_NS` of the last scan is re-hashed instead of trusted (its mtime may not have ticked).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from git_memory.contracts.canonical import sha256_hex
from git_memory.database import Row
from git_memory.errors import GitMemoryError
from git_memory.failpoints import failpoint
from git_memory.store.approved_scan import (
    Scanned,
    Signature,
    list_entries,
    read_nofollow,
    scan_one,
    source_tree_digest,
)
from git_memory.store.db import StateDB, now_ms

if TYPE_CHECKING:
    from git_memory.contracts.extraction import OwnerKeys

ANALYZER_VERSION = "memory-approved@1"
RECALL_ALGORITHM = "recall-rrf@1"
RACY_NS = 1_000_000_000
DEFAULT_RETRIES = 2


@dataclass(frozen=True)
class ProjectionState:
    """The owner's approved projection state."""

    generation: int
    coverage: str
    source_tree_digest: str
    memory_root: str
    scanned_at_ns: int


@dataclass
class ApprovedSyncResult:
    """What a sync did. `changed`: rows replaced and generation bumped; `read`: entry files
    read (a file unchanged since the last complete scan keeps its row unread)."""

    generation: int
    coverage: str
    source_tree_digest: str
    changed: bool = False
    fast_path: bool = False
    entries: int = 0
    attempts: int = 1
    skipped: list[dict[str, str]] = field(default_factory=list)
    read: int = 0


def get_projection(db: StateDB, owner: OwnerKeys) -> ProjectionState | None:
    """The owner's approved projection, or None before the first sync."""
    row = db.one(
        "SELECT * FROM approved_projection WHERE repository_key = ? AND worktree_key = ?",
        (owner.repository_key, owner.worktree_key),
    )
    if row is None:
        return None
    return ProjectionState(
        row["generation"],
        row["coverage"],
        row["source_tree_digest"],
        row["memory_root"],
        row["scanned_at_ns"],
    )


def _stored_sources(db: StateDB, owner: OwnerKeys) -> dict[str, tuple[Signature, str | None]]:
    rows = db.rows(
        "SELECT path, device, inode, size, mtime_ns, ctime_ns, content_digest"
        " FROM approved_sources WHERE repository_key = ? AND worktree_key = ?",
        (owner.repository_key, owner.worktree_key),
    )
    return {row[0]: ((row[1], row[2], row[3], row[4], row[5]), row[6]) for row in rows}


def source_digests(db: StateDB, owner: OwnerKeys) -> dict[str, str | None]:
    """The content digest of every entry file the last scan listed, by memory-root-relative
    path (None: not a regular file); current after a complete sync of this operation."""
    return {path: content for path, (_, content) in _stored_sources(db, owner).items()}


def sync_approved(
    db: StateDB,
    owner: OwnerKeys,
    root: Path,
    memory_root: str,
    *,
    retries: int = DEFAULT_RETRIES,
    on_scanned: Callable[[], None] | None = None,
) -> ApprovedSyncResult:
    """Bring the owner's approved projection up to date with the worktree's entry files.

    `root` is the worktree root (realpath), `memory_root` the memory root relative to it.
    `on_scanned` runs between the scan and the re-stat (tests use it to edit a file there).
    """
    current = get_projection(db, owner)
    listing = list_entries(root, memory_root)
    stored = _stored_sources(db, owner)
    fresh = current is not None and current.memory_root == memory_root
    if (
        fresh
        and current is not None
        and _unchanged_by_stat(db, owner, current, root, listing, stored=stored)
    ):
        return ApprovedSyncResult(
            current.generation, current.coverage, current.source_tree_digest, fast_path=True
        )
    # Files whose signature is the one recorded (and not racy) keep their stored row: one
    # changed entry re-reads one file.
    reusable = _reusable(db, owner, current, memory_root, stored)
    attempts = 0
    while True:
        attempts += 1
        scan_start = time.time_ns()
        scanned = [
            _reused_or_scanned(reusable, root, memory_root, path, sig)
            for path, sig in sorted(listing.items())
        ]
        if on_scanned is not None:
            on_scanned()
        relisted = list_entries(root, memory_root)
        drifted = relisted != listing or any(
            item.problem is not None and item.problem["code"] == "GM_SYNC_DRIFT" for item in scanned
        )
        if not drifted:
            break
        listing = relisted
        if attempts > retries:
            return _mark_partial(db, owner, memory_root, attempts)
    kept = {item.path for item in scanned if reusable.get(item.path) is item}
    result = _commit(
        db, owner, memory_root, scanned, scan_start, kept=kept, stored=(current, stored)
    )
    result.attempts = attempts
    result.read = len(scanned) - len(kept)
    return result


def _reusable(
    db: StateDB,
    owner: OwnerKeys,
    current: ProjectionState | None,
    memory_root: str,
    stored: dict[str, tuple[Signature, str | None]],
) -> dict[str, Scanned]:
    """The last complete scan's items that can stand for a file whose signature is unchanged:
    rows of entry files last changed before that scan's racy window (a file with a problem
    has no row and is read again). A kept row stays in the table as it is, so only its path
    and digest are read here."""
    if current is None or current.coverage != "complete" or current.memory_root != memory_root:
        return {}
    racy_after = current.scanned_at_ns - RACY_NS
    stored_rows = db.rows(
        "SELECT path, content_digest FROM approved_entries"
        " WHERE repository_key = ? AND worktree_key = ?",
        (owner.repository_key, owner.worktree_key),
    )
    by_path = {row[0]: row[1] for row in stored_rows}
    reusable: dict[str, Scanned] = {}
    for path, (sig, content_digest) in stored.items():
        worktree_path = f"{memory_root}/{path}"
        if by_path.get(worktree_path) == content_digest and sig[3] < racy_after:
            row = {"path": worktree_path, "content_digest": content_digest}
            reusable[path] = Scanned(path, sig, content_digest, row, None)
    return reusable


def _reused_or_scanned(
    reusable: dict[str, Scanned], root: Path, memory_root: str, path: str, sig: Signature | None
) -> Scanned:
    known = reusable.get(path)
    if known is not None and sig is not None and known.signature == sig:
        return known
    return scan_one(root, memory_root, path, sig)


def _unchanged_by_stat(
    db: StateDB,
    owner: OwnerKeys,
    current: ProjectionState,
    root: Path,
    listing: dict[str, Signature | None],
    *,
    stored: dict[str, tuple[Signature, str | None]],
) -> bool:
    """True when nothing changed since the last complete scan.

    Only files whose mtime falls in the racy window of that scan are read (and re-hashed);
    when they all match, the scan time moves forward so they are trusted next time.
    """
    if current.coverage != "complete":
        return False
    if set(stored) != set(listing):
        return False
    racy_after = current.scanned_at_ns - RACY_NS
    racy: list[str] = []
    for path, sig in listing.items():
        known, _ = stored[path]
        if sig is None or sig != known:
            return False
        if sig[3] >= racy_after:
            racy.append(path)
    if not racy:
        return True
    verify_start = time.time_ns()
    for path in racy:
        try:
            data, sig = read_nofollow(root, current.memory_root, path)
        except (OSError, GitMemoryError):
            return False
        if sig != stored[path][0] or sha256_hex(data) != stored[path][1]:
            return False
    with db.write(boundary="store.sync-approved-verified"):
        db.execute(
            "UPDATE approved_projection SET scanned_at_ns = ? WHERE repository_key = ?"
            " AND worktree_key = ? AND generation = ?",
            (verify_start, owner.repository_key, owner.worktree_key, current.generation),
        )
    return True


def _mark_partial(
    db: StateDB, owner: OwnerKeys, memory_root: str, attempts: int
) -> ApprovedSyncResult:
    """Record that the last scan drifted: coverage partial, generation and rows unchanged."""
    with db.write(boundary="store.sync-approved-partial"):
        current = get_projection(db, owner)
        if current is None:
            _upsert_projection(
                db,
                owner,
                generation=0,
                tree="",
                coverage="partial",
                memory_root=memory_root,
                scanned_at_ns=0,
            )
            generation, tree = 0, ""
        else:
            db.execute(
                "UPDATE approved_projection SET coverage = 'partial', synced_at = ?"
                " WHERE repository_key = ? AND worktree_key = ?",
                (now_ms(), owner.repository_key, owner.worktree_key),
            )
            generation, tree = current.generation, current.source_tree_digest
    return ApprovedSyncResult(generation, "partial", tree, attempts=attempts)


def _commit(
    db: StateDB,
    owner: OwnerKeys,
    memory_root: str,
    scanned: list[Scanned],
    scan_start: int,
    *,
    kept: set[str] | frozenset[str] = frozenset(),
    stored: tuple[ProjectionState | None, dict[str, tuple[Signature, str | None]]] | None = None,
) -> ApprovedSyncResult:
    """Replace rows + FTS and bump the generation, unless the tree digest is unchanged.

    `kept` are paths whose stored row stands unread (`_reusable`): only the other rows are
    deleted and inserted, so one changed entry rewrites one row. `stored` are the projection
    and the source signatures read at the start of the sync: while no other sync committed
    since (the projection is the same), only the sources that differ are rewritten."""
    tree = source_tree_digest([(item.path, item.content_digest) for item in scanned])
    rows = [item.row for item in scanned if item.row is not None]
    skipped = [{"path": item.path, **item.problem} for item in scanned if item.problem]
    with db.write(boundary="store.sync-approved"):
        current = get_projection(db, owner)
        same = current is not None and current.source_tree_digest == tree
        same = same and current is not None and current.memory_root == memory_root
        generation = (current.generation if current else 0) + (0 if same else 1)
        if not same:
            kept_rows = {f"{memory_root}/{path}" for path in kept}
            _delete_rows_except(db, owner, kept_rows)
            failpoint("store.sync-approved.after-delete")
            _insert_rows(db, owner, [row for row in rows if row["path"] not in kept_rows])
        unchanged = stored is not None and stored[0] is not None and stored[0] == current
        _replace_sources(db, owner, scanned, stored[1] if stored and unchanged else None)
        _upsert_projection(
            db,
            owner,
            generation=generation,
            tree=tree,
            coverage="complete",
            memory_root=memory_root,
            scanned_at_ns=scan_start,
        )
    return ApprovedSyncResult(
        generation, "complete", tree, changed=not same, entries=len(rows), skipped=skipped
    )


_ROW_COLUMNS = (
    "entry_id", "path", "type", "scene", "status", "priority", "revision", "content_digest",
    "frontmatter_json", "body_text", "summary", "searchable_text",
)  # fmt: skip


def _delete_rows_except(db: StateDB, owner: OwnerKeys, kept_rows: set[str]) -> None:
    """Delete the owner's rows but those at the worktree paths `kept_rows`."""
    keys = (owner.repository_key, owner.worktree_key)
    if not kept_rows:
        db.execute(
            "DELETE FROM approved_entries WHERE repository_key = ? AND worktree_key = ?", keys
        )
        return
    stored = db.rows(
        "SELECT seq, path FROM approved_entries WHERE repository_key = ? AND worktree_key = ?",
        keys,
    )
    db.executemany(
        "DELETE FROM approved_entries WHERE seq = ?",  # the primary key: one lookup a row
        ((row[0],) for row in stored if row[1] not in kept_rows),
    )


def _insert_rows(db: StateDB, owner: OwnerKeys, rows: list[dict[str, Any]]) -> None:
    columns = ", ".join(_ROW_COLUMNS)
    marks = ", ".join("?" for _ in range(len(_ROW_COLUMNS) + 2))
    db.executemany(
        f"INSERT INTO approved_entries (repository_key, worktree_key, {columns}) VALUES ({marks})",
        (
            (owner.repository_key, owner.worktree_key, *(row[c] for c in _ROW_COLUMNS))
            for row in rows
        ),
    )


def _replace_sources(
    db: StateDB,
    owner: OwnerKeys,
    scanned: list[Scanned],
    stored: dict[str, tuple[Signature, str | None]] | None,
) -> None:
    keys = (owner.repository_key, owner.worktree_key)
    if stored is not None:
        _update_sources(db, owner, scanned, stored)
        return
    db.execute("DELETE FROM approved_sources WHERE repository_key = ? AND worktree_key = ?", keys)
    db.executemany(
        "INSERT INTO approved_sources (repository_key, worktree_key, path, device, inode, size,"
        " mtime_ns, ctime_ns, content_digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (owner.repository_key, owner.worktree_key, item.path, *item.signature,
             item.content_digest)
            for item in scanned
            if item.signature is not None
        ),
    )  # fmt: skip


def _update_sources(
    db: StateDB,
    owner: OwnerKeys,
    scanned: list[Scanned],
    stored: dict[str, tuple[Signature, str | None]],
) -> None:
    """Rewrite only the source rows that differ from `stored`, the rows as they are."""
    keys = (owner.repository_key, owner.worktree_key)
    now = {item.path: (item.signature, item.content_digest) for item in scanned if item.signature}
    gone = [path for path, known in stored.items() if now.get(path) != known]
    db.executemany(
        "DELETE FROM approved_sources WHERE repository_key = ? AND worktree_key = ? AND path = ?",
        ((*keys, path) for path in gone),
    )
    db.executemany(
        "INSERT INTO approved_sources (repository_key, worktree_key, path, device, inode, size,"
        " mtime_ns, ctime_ns, content_digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (*keys, path, *signature, content_digest)
            for path, (signature, content_digest) in now.items()
            if stored.get(path) != (signature, content_digest)
        ),
    )


def _upsert_projection(
    db: StateDB,
    owner: OwnerKeys,
    *,
    generation: int,
    tree: str,
    coverage: str,
    memory_root: str,
    scanned_at_ns: int,
) -> None:
    db.execute(
        "INSERT INTO approved_projection (repository_key, worktree_key, generation,"
        " source_tree_digest, coverage, analyzer_version, recall_algorithm_version,"
        " memory_root, scanned_at_ns, synced_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (repository_key, worktree_key) DO UPDATE SET"
        " generation = excluded.generation, source_tree_digest = excluded.source_tree_digest,"
        " coverage = excluded.coverage, analyzer_version = excluded.analyzer_version,"
        " memory_root = excluded.memory_root, scanned_at_ns = excluded.scanned_at_ns,"
        " synced_at = excluded.synced_at",
        (
            owner.repository_key,
            owner.worktree_key,
            generation,
            tree,
            coverage,
            ANALYZER_VERSION,
            RECALL_ALGORITHM,
            memory_root,
            scanned_at_ns,
            now_ms(),
        ),
    )


def list_approved_entries(db: StateDB, owner: OwnerKeys) -> list[Row]:
    """The owner's approved (not deprecated) entry rows, by entry id."""
    return db.rows(
        "SELECT entry_id, revision, content_digest, type, scene, priority, frontmatter_json,"
        " body_text FROM approved_entries WHERE repository_key = ? AND worktree_key = ?"
        " AND status = 'approved' ORDER BY entry_id",
        (owner.repository_key, owner.worktree_key),
    )
