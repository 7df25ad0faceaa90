"""Incremental sync of the session index (docs/sessions.md).

One writer at a time (the index's writer lock, held for the whole sync). Changed files are
committed in batches, one transaction for about a second of work, each file a savepoint of
it: a sync killed half-way keeps every batch committed before, loses at most the one under
way, and leaves every file either fully old or fully new; the next sync continues. One
commit per file made the FTS5 index merge its segments after every file and wrote the same
hot pages to the WAL again and again; for the same reason a batch's new turns enter the FTS5
index together, just before it commits. Vanished files are removed first (so a rollout that
was compressed to `.jsonl.zst` is re-added under the same session key).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from git_memory import output
from git_memory.database import Database, DatabaseError
from git_memory.errors import GitMemoryError
from git_memory.failpoints import failpoint
from git_memory.paths import ensure_private_dir
from git_memory.sessions import index
from git_memory.sessions.discover import default_roots, discover
from git_memory.sessions.ingest import FileOutcome, ingest
from git_memory.sessions.providers.base import SourceFile
from git_memory.sessions.records import Diagnostic
from git_memory.sessions.source_io import SourceRefused
from git_memory.sessions.writer import forget_resolved, index_new_turns

EXAMPLE_LIMIT = 5
DEFAULT_LOCK_TIMEOUT = 600.0
# Seconds of indexing committed together (the work a crash may lose).
BATCH_SECONDS = 1.0


@dataclass
class SessionSyncResult:
    """Counts of one sync and the first diagnostics (file below its source root + offset)."""

    files_seen: int = 0
    new: int = 0
    resumed: int = 0
    reread: int = 0
    unchanged: int = 0
    removed: int = 0
    excluded: int = 0
    turns_added: int = 0
    diagnostics: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)

    def count(self, source: SourceFile, outcome: FileOutcome) -> None:
        """Fold one file's outcome into the totals."""
        if outcome.kind == "unchanged":  # the common case of a re-sync
            self.unchanged += 1
            return
        if outcome.kind != "refused":
            setattr(self, outcome.kind, getattr(self, outcome.kind) + 1)
        self.turns_added += outcome.turns_added
        self.diagnostics += len(outcome.diagnostics)
        for item in outcome.diagnostics:
            if len(self.examples) < EXAMPLE_LIMIT:
                self.examples.append(
                    {
                        "file": source.display,
                        "offset": item.offset,
                        "code": item.code,
                        "message": item.message,
                    }
                )


def _check_sources(sources: list[Path]) -> None:
    for folder in sources:
        if not folder.is_dir():
            raise GitMemoryError(
                "GM_SOURCE_NOT_FOUND",
                f"--source is not a directory: {folder.name!r}",
                hint="pass a folder of transcripts or a copy of an agent's history directory",
            )


def sync(
    state_home: Path,
    sources: list[Path] | None = None,
    *,
    roots: list[tuple[str, Path]] | None = None,
    providers: Sequence[str] | None = None,
    show_progress: bool = False,
    lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    batch_seconds: float = BATCH_SECONDS,
) -> SessionSyncResult:
    """Bring the index up to date with every discovered transcript (of the `providers`
    named, default every registered one), committing every `batch_seconds`."""
    extra = list(sources or [])
    _check_sources(extra)
    ensure_private_dir(state_home)
    try:
        with index.open_writer(state_home, lock_timeout) as db, db.locked():
            if roots is None:
                roots = default_roots(providers)
            found = discover(roots, extra)
            with _bar(show_progress, len(found)) as bar:
                return _sync_locked(db, found, bar, batch_seconds)
    except DatabaseError as exc:
        # Foreign databases are read behind `SourceRefused`: this one is the index.
        raise index.index_unreadable(exc) from exc


def _sync_locked(
    db: Database, found: list[SourceFile], bar: Any, seconds: float
) -> SessionSyncResult:
    result = SessionSyncResult(files_seen=len(found))
    forget_resolved()
    # Only what the unchanged check needs; `ingest` reads the whole row of a changed file.
    cursor = db.conn.execute("SELECT path, id, dev, ino, size, mtime_ns, excluded FROM files")
    cursor.row_factory = None
    rows = {row[0]: row[1:] for row in cursor}
    present = {source.path for source in found if source.excluded is None}
    for path, row in rows.items():
        if path not in present:
            with db.write():
                db.execute("DELETE FROM files WHERE id = ?", (row[0],))
            result.removed += 1
    position = 0
    while position < len(found):
        with db.write(boundary="sessions.sync"):
            began = time.monotonic()
            while position < len(found):
                source = found[position]
                _one(db, source, rows.get(source.path), result)
                position += 1
                bar.advance()
                if time.monotonic() - began >= seconds:
                    break
            index_new_turns(db.conn)
    return result


def _one(db: Database, source: SourceFile, row: Any, result: SessionSyncResult) -> None:
    if source.excluded is not None:
        result.excluded += 1
        return
    try:
        outcome = ingest(db, source, row)
    except FileNotFoundError:
        return  # deleted while we looked; the next sync removes its rows
    except SourceRefused as refused:
        # Not indexed, and reported on every sync until it is gone: never a failed sync.
        outcome = FileOutcome("refused", 0, [Diagnostic(refused.code, 0, refused.message)])
    result.count(source, outcome)
    if outcome.kind != "unchanged":  # nothing was written for an unchanged file
        failpoint("sessions.sync.after-file")


class _NoBar:
    def advance(self, step: int = 1) -> None:
        del step

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def _bar(show: bool, total: int) -> Any:
    return output.progress("sessions sync", total) if show else _NoBar()
