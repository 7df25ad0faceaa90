"""Derived approved entries, kept by content digest: one changed entry is derived again,
everything else comes from the record, and a record that cannot be trusted is not used."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from git_memory.assemble import entry_cache
from git_memory.assemble.entries import entry_from_row


def _row(n: int, body: str = "Run `cd pkg/web && make test` before pushing.") -> dict[str, Any]:
    front = {"claim_support": "human-confirmed", "occurred": ["2026-01-02"], "scope": "repo"}
    return {
        "entry_id": f"entry-{n}",
        "type": "work_method",
        "scene": "",
        "priority": n,
        "content_digest": f"{n:064x}" if body.startswith("Run") else f"{n + 1000:064x}",
        "frontmatter_json": json.dumps({**front, "evidence": {"paths": ["pkg/web/Makefile"]}}),
        "body_text": f"{body} ({n})\n",
    }


@pytest.fixture
def derived(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Ids of the entries derived from their rows (not taken from the record)."""
    found: list[str] = []

    def counting(row: Any) -> Any:
        found.append(row["entry_id"])
        return entry_from_row(row)

    monkeypatch.setattr(entry_cache, "entry_from_row", counting)
    return found


def test_only_a_changed_entry_is_derived_again(tmp_path: Path, derived: list[str]) -> None:
    path = tmp_path / "entries.json"
    rows = [_row(n) for n in range(5)]
    first = entry_cache.approved_entries(rows, path, save=True)
    assert first == [entry_from_row(row) for row in rows]
    assert first[0].scope == "pkg/web"
    rows[2] = _row(2, body="Never edit generated files by hand.")
    derived.clear()
    again = entry_cache.approved_entries(rows, path, save=True)
    assert derived == ["entry-2"]
    assert again == [entry_from_row(row) for row in rows]
    derived.clear()
    assert entry_cache.approved_entries(rows[:3], path, save=True) == again[:3]
    assert derived == []
    assert len(json.loads(path.read_text())["entries"]) == 3  # a removed entry is dropped


@pytest.mark.parametrize("damage", ["corrupt", "other-version", "wrong-shape"])
def test_a_record_that_cannot_be_trusted_is_not_used(
    tmp_path: Path, derived: list[str], damage: str
) -> None:
    path = tmp_path / "entries.json"
    rows = [_row(n) for n in range(3)]
    entry_cache.approved_entries(rows, path, save=True)
    document = json.loads(path.read_text())
    if damage == "corrupt":
        path.write_text("{not json")
    elif damage == "other-version":
        document["version"] = "0.0.0-other"
        path.write_text(json.dumps(document))
    else:
        for fields in document["entries"].values():
            fields[3] = "high"  # the priority, as text
        path.write_text(json.dumps(document))
    derived.clear()
    assert entry_cache.approved_entries(rows, path, save=False) == [
        entry_from_row(row) for row in rows
    ]
    assert derived == ["entry-0", "entry-1", "entry-2"]
