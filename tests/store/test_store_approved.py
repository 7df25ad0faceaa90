"""Approved projection: cold sync, stat fast path, short-circuit, drift → partial, lint gate."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from git_memory.contracts.extraction import OwnerKeys
from git_memory.formats.entry import Entry, serialize_entry
from git_memory.store.approved import get_projection, source_digests, sync_approved
from git_memory.store.db import StateDB
from git_memory.store.fts_queries import search_approved

OWNER = OwnerKeys(repository_key="a" * 64, worktree_key="b" * 64)
ROOT = ".memory"


def write_entry(
    root: Path, entry_id: str, body: str, memory_root: str = ROOT, **fields: str
) -> Path:
    path = root / memory_root / "entries" / f"{entry_id}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(serialize_entry(Entry(id=entry_id, body=body, **fields)), encoding="utf-8")  # type: ignore[arg-type]
    return path


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "wt"
    write_entry(root, "sqlite-wal-mode", "Use WAL mode so readers never block the writer.\n")
    write_entry(root, "pytest-home", "Tests set HOME to a temp dir so nothing real is touched.\n")
    return root


def _ids(db: StateDB, query: str) -> list[str]:
    return [row.id for row in search_approved(db, OWNER, query, 10)]


def test_cold_sync_then_stat_only_noop(db: StateDB, tree: Path) -> None:
    first = sync_approved(db, OWNER, tree, ROOT)
    assert (first.generation, first.coverage, first.changed, first.entries) == (
        1,
        "complete",
        True,
        2,
    )
    assert _ids(db, "WAL readers") == ["sqlite-wal-mode"]
    second = sync_approved(db, OWNER, tree, ROOT)
    assert second.generation == 1
    assert not second.changed
    assert second.source_tree_digest == first.source_tree_digest
    # old enough files are trusted by stat alone: simulate age by moving the scan time on
    db.execute("UPDATE approved_projection SET scanned_at_ns = scanned_at_ns + 10000000000")
    third = sync_approved(db, OWNER, tree, ROOT)
    assert third.fast_path
    assert third.generation == 1


def test_same_bytes_rewritten_short_circuits(db: StateDB, tree: Path) -> None:
    first = sync_approved(db, OWNER, tree, ROOT)
    path = tree / ROOT / "entries" / "pytest-home.md"
    data = path.read_bytes()
    path.unlink()
    path.write_bytes(data)  # new inode and mtime, same content
    again = sync_approved(db, OWNER, tree, ROOT)
    assert not again.fast_path
    assert not again.changed
    assert again.generation == first.generation


def test_edit_right_after_sync_is_seen_even_with_equal_size(db: StateDB, tree: Path) -> None:
    sync_approved(db, OWNER, tree, ROOT)
    path = tree / ROOT / "entries" / "pytest-home.md"
    before = path.stat()
    text = path.read_text().replace("temp dir", "tmp dirr")
    path.write_text(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # mtime did not tick
    result = sync_approved(db, OWNER, tree, ROOT)
    assert result.changed
    assert result.generation == 2
    assert _ids(db, "dirr") == ["pytest-home"]


def test_deleted_and_added_entries_replace_rows_and_fts(db: StateDB, tree: Path) -> None:
    sync_approved(db, OWNER, tree, ROOT)
    (tree / ROOT / "entries" / "sqlite-wal-mode.md").unlink()
    write_entry(tree, "git-blob-cas", "Compare blob ids before replacing a file.\n")
    result = sync_approved(db, OWNER, tree, ROOT)
    assert (result.generation, result.entries) == (2, 2)
    assert _ids(db, "WAL") == []
    assert _ids(db, "blob") == ["git-blob-cas"]
    assert db.scalar("SELECT count(*) FROM approved_fts WHERE approved_fts MATCH 'readers'") == 0


def test_lint_blocked_malformed_and_symlinked_files_are_skipped(db: StateDB, tree: Path) -> None:
    key = "AKIA" + "ABCDEFGHIJKLMNOP"
    write_entry(tree, "leaky", f"The deploy key is {key} for now.\n")
    (tree / ROOT / "entries" / "broken.md").write_text("no frontmatter here\n")
    outside = tree / "outside.md"
    outside.write_text(serialize_entry(Entry(id="linked", body="outside the root\n")))
    (tree / ROOT / "entries" / "linked.md").symlink_to(outside)
    result = sync_approved(db, OWNER, tree, ROOT)
    skipped = {item["path"]: item["code"] for item in result.skipped}
    assert set(skipped) == {"entries/leaky.md", "entries/broken.md", "entries/linked.md"}
    assert skipped["entries/linked.md"] == "GM_NOT_A_FILE"
    assert skipped["entries/leaky.md"].startswith("GM_LINT_")
    assert skipped["entries/broken.md"].startswith("GM_FORMAT_")
    assert result.entries == 2
    assert _ids(db, "deploy key") == []
    assert _ids(db, "outside") == []


def test_drift_during_scan_marks_partial_and_keeps_generation(db: StateDB, tree: Path) -> None:
    first = sync_approved(db, OWNER, tree, ROOT)
    path = tree / ROOT / "entries" / "pytest-home.md"
    counter = {"n": 0}

    def edit() -> None:
        counter["n"] += 1
        path.write_text(serialize_entry(Entry(id="pytest-home", body=f"edit {counter['n']}\n")))

    write_entry(tree, "needs-a-scan", "A new file, so the stat fast path cannot answer.\n")
    result = sync_approved(db, OWNER, tree, ROOT, retries=2, on_scanned=edit)
    assert result.coverage == "partial"
    assert result.attempts == 3
    assert result.generation == first.generation
    projection = get_projection(db, OWNER)
    assert projection is not None
    assert projection.coverage == "partial"
    assert _ids(db, "HOME") == ["pytest-home"]  # the old rows stay until a clean scan
    healed = sync_approved(db, OWNER, tree, ROOT)
    assert (healed.coverage, healed.generation) == ("complete", 2)
    assert _ids(db, "edit") == ["pytest-home"]


def test_one_drift_is_retried_to_a_complete_scan(db: StateDB, tree: Path) -> None:
    calls = {"n": 0}

    def add_once() -> None:
        if calls["n"] == 0:
            write_entry(tree, "late-arrival", "Written during the first scan.\n")
        calls["n"] += 1

    result = sync_approved(db, OWNER, tree, ROOT, on_scanned=add_once)
    assert (result.coverage, result.attempts, result.entries) == ("complete", 2, 3)


def test_owners_are_isolated_and_missing_root_is_empty(
    db: StateDB, tree: Path, tmp_path: Path
) -> None:
    other = OwnerKeys(repository_key="c" * 64, worktree_key="d" * 64)
    sync_approved(db, OWNER, tree, ROOT)
    empty = sync_approved(db, other, tmp_path / "nothing-here", ROOT)
    assert (empty.entries, empty.coverage) == (0, "complete")
    assert [row.id for row in search_approved(db, other, "WAL", 10)] == []
    assert _ids(db, "WAL") == ["sqlite-wal-mode"]


def test_one_changed_entry_rereads_one_file(db: StateDB, tree: Path) -> None:
    write_entry(tree, "third-entry", "A third note to keep.\n")
    first = sync_approved(db, OWNER, tree, ROOT)
    assert (first.entries, first.read) == (3, 3)
    # old enough files are trusted by stat alone: simulate age by moving the scan time on
    db.execute("UPDATE approved_projection SET scanned_at_ns = scanned_at_ns + 10000000000")
    write_entry(tree, "pytest-home", "Tests point HOME at a scratch dir instead.\n")
    edited = sync_approved(db, OWNER, tree, ROOT)
    assert (edited.changed, edited.entries, edited.read) == (True, 3, 1)
    assert _ids(db, "scratch") == ["pytest-home"]
    assert _ids(db, "WAL readers") == ["sqlite-wal-mode"]
    db.execute("UPDATE approved_projection SET scanned_at_ns = scanned_at_ns + 10000000000")
    (tree / ROOT / "entries" / "third-entry.md").unlink()
    write_entry(tree, "fourth-entry", "A fourth note arrives.\n")
    moved = sync_approved(db, OWNER, tree, ROOT)
    assert (moved.changed, moved.entries, moved.read) == (True, 3, 1)
    assert _ids(db, "third") == []
    assert _ids(db, "fourth") == ["fourth-entry"]


def test_recently_changed_entries_are_read_again(db: StateDB, tree: Path) -> None:
    # Within the racy window of the last scan a file's signature proves nothing: it is read.
    first = sync_approved(db, OWNER, tree, ROOT)
    write_entry(tree, "third-entry", "A third note to keep.\n")
    again = sync_approved(db, OWNER, tree, ROOT)
    assert (first.read, again.entries, again.read) == (2, 3, 3)


def _table(db: StateDB, table: str, columns: str) -> list[tuple[object, ...]]:
    return [tuple(row) for row in db.rows(f"SELECT {columns} FROM {table} ORDER BY path")]


def test_an_incremental_sync_leaves_the_rows_a_full_scan_writes(
    db: StateDB, tree: Path, tmp_path: Path
) -> None:
    # Kept rows are neither re-read nor rewritten, only changed sources are: the tables end
    # up as a cold sync of the same files into a new database leaves them.
    write_entry(tree, "third-entry", "A third note to keep.\n")
    sync_approved(db, OWNER, tree, ROOT)
    db.execute("UPDATE approved_projection SET scanned_at_ns = scanned_at_ns + 10000000000")
    write_entry(tree, "pytest-home", "Tests point HOME at a scratch dir instead.\n")
    (tree / ROOT / "entries" / "third-entry.md").unlink()
    write_entry(tree, "fourth-entry", "A fourth note arrives.\n")
    edited = sync_approved(db, OWNER, tree, ROOT)
    assert (edited.changed, edited.read) == (True, 2)
    cold = StateDB(tmp_path / "cold.sqlite3")
    try:
        sync_approved(cold, OWNER, tree, ROOT)
        sources = "path, device, inode, size, mtime_ns, ctime_ns, content_digest"
        entries = "entry_id, path, revision, content_digest, frontmatter_json, body_text, summary"
        for table, columns in (("approved_sources", sources), ("approved_entries", entries)):
            assert _table(db, table, columns) == _table(cold, table, columns)
        assert get_projection(db, OWNER).source_tree_digest == (  # type: ignore[union-attr]
            get_projection(cold, OWNER).source_tree_digest  # type: ignore[union-attr]
        )
        assert source_digests(db, OWNER) == source_digests(cold, OWNER)
    finally:
        cold.close()
