"""`git memory search` on both memory-root layouts, automatic re-sync, status counts."""

from __future__ import annotations

from typing import Any

import pytest

from git_memory.formats.entry import Entry, serialize_entry
from tests.repos import Repo


def _entry(entry_id: str, body: str, scene: str | None = None) -> str:
    return serialize_entry(Entry(id=entry_id, body=body, scene=scene))


@pytest.mark.parametrize("memory_root", [".memory", ".threadshare/memory"])
def test_search_finds_entries_in_either_layout(repo: Repo, gm: Any, memory_root: str) -> None:
    repo.write(
        f"{memory_root}/entries/wal-readers.md", _entry("wal-readers", "WAL lets readers run.\n")
    )
    repo.write(
        f"{memory_root}/entries/lease-epochs.md",
        _entry("lease-epochs", "A claim bumps the lease epoch; readers ignore it.\n", "tasks"),
    )
    result = gm(["search", "readers", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    doc = result.json()
    assert doc["format"] == "git-memory-search@v1"
    assert (doc["generation"], doc["coverage"]) == (1, "complete")
    assert {r["id"] for r in doc["results"]} == {"wal-readers", "lease-epochs"}
    by_id = {r["id"]: r for r in doc["results"]}
    assert by_id["lease-epochs"] == {
        "id": "lease-epochs",
        "type": "work_fact",
        "scene": "tasks",
        "score": by_id["lease-epochs"]["score"],
        "summary": "A claim bumps the lease epoch; readers ignore it.",
        "path": f"{memory_root}/entries/lease-epochs.md",
        "freshness": "unverifiable",
    }
    assert by_id["wal-readers"]["path"] == f"{memory_root}/entries/wal-readers.md"
    assert (
        gm(["search", "lease", "--limit", "1", "--format", "json"], cwd=repo.root).json()[
            "results"
        ][0]["id"]
        == "lease-epochs"
    )


def test_entry_edited_on_disk_is_found_after_automatic_resync(repo: Repo, gm: Any) -> None:
    path = repo.write(
        ".memory/entries/cache-rule.md", _entry("cache-rule", "Caches expire hourly.\n")
    )
    assert gm(["search", "hourly", "--format", "json"], cwd=repo.root).json()["results"]
    path.write_text(_entry("cache-rule", "Caches expire nightly at two.\n"))
    doc = gm(["search", "nightly", "--format", "json"], cwd=repo.root).json()
    assert [r["id"] for r in doc["results"]] == ["cache-rule"]
    assert doc["generation"] == 2
    assert gm(["search", "hourly", "--format", "json"], cwd=repo.root).json()["results"] == []
    text = gm(["search", "nightly"], cwd=repo.root)
    assert "cache-rule" in text.stdout
    assert "generation" not in text.stdout, "text shows results, not internal counters"


def test_search_results_rank_by_bm25_then_id(repo: Repo, gm: Any) -> None:
    for name in ("b-same", "a-same", "c-same"):
        repo.write(f".memory/entries/{name}.md", _entry(name, "identical words here\n"))
    repo.write(".memory/entries/strong.md", _entry("strong", "zebra zebra zebra zebra\n"))
    repo.write(
        ".memory/entries/weak.md", _entry("weak", "zebra and many other words to dilute it\n")
    )
    ids = [
        r["id"]
        for r in gm(["search", "identical", "--format", "json"], cwd=repo.root).json()["results"]
    ]
    assert ids == ["a-same", "b-same", "c-same"]
    zebra = gm(["search", "zebra", "--format", "json"], cwd=repo.root).json()["results"]
    assert [r["id"] for r in zebra] == ["strong", "weak"]
    assert zebra[0]["score"] > zebra[1]["score"]


def test_bad_queries_are_request_errors(repo: Repo, gm: Any) -> None:
    too_long = gm(["search", "x" * 1025], cwd=repo.root)
    assert too_long.exit_code == 2
    assert "GM_REQUEST_INVALID" in too_long.stderr
    missing = gm(["search", "--format", "json"], cwd=repo.root)
    assert missing.exit_code != 0
    assert "GM_REQUEST_INVALID" in missing.stdout + missing.stderr
    punctuation = gm(["search", "!!!", "--format", "json"], cwd=repo.root)
    assert punctuation.exit_code == 0
    assert punctuation.json()["results"] == []


def test_status_counts_memory_state(repo: Repo, gm: Any) -> None:
    fresh = gm(["status", "--format", "json"], cwd=repo.root).json()["counts"]["memory"]
    assert fresh["tasks"] == {"pending": 0, "claimed": 0, "submitted": 0, "stale": 0}
    assert fresh["approved"]["entries"] == 0
    repo.write(".memory/entries/one.md", _entry("one", "first entry\n"))
    assert gm(["search", "first"], cwd=repo.root).exit_code == 0
    counts = gm(["status", "--format", "json"], cwd=repo.root).json()["counts"]["memory"]
    assert counts["approved"] == {
        "entries": 1,
        "retired": 0,
        "generation": 1,
        "coverage": "complete",
    }
    assert counts["candidates"]["draft"] == 0
