"""The approved scan notices a file that changed or vanished between listing and reading."""

from __future__ import annotations

from pathlib import Path

from git_memory.formats.entry import Entry, serialize_entry
from git_memory.store.approved_scan import list_entries, scan_one

ENTRY = serialize_entry(Entry(id="alpha", body="Alpha.\n"))


def _tree(tmp_path: Path) -> Path:
    entries = tmp_path / ".memory" / "entries"
    entries.mkdir(parents=True)
    (entries / "alpha.md").write_text(ENTRY)
    return tmp_path


def test_changed_after_listing_is_drift(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    listing = list_entries(root, ".memory")
    assert (
        scan_one(root, ".memory", "entries/alpha.md", listing["entries/alpha.md"]).problem is None
    )
    (root / ".memory" / "entries" / "alpha.md").write_text(ENTRY + "More.\n")
    scanned = scan_one(root, ".memory", "entries/alpha.md", listing["entries/alpha.md"])
    assert scanned.problem is not None
    assert scanned.problem["code"] == "GM_SYNC_DRIFT"


def test_vanished_after_listing_is_drift(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    listing = list_entries(root, ".memory")
    (root / ".memory" / "entries" / "alpha.md").unlink()
    scanned = scan_one(root, ".memory", "entries/alpha.md", listing["entries/alpha.md"])
    assert scanned.problem == {"code": "GM_SYNC_DRIFT", "message": "file vanished"}
