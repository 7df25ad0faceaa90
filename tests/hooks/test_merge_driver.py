"""The index.json merge driver resolves a real `git merge` of two promoting branches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from git_memory.formats.index_json import parse_index
from git_memory.testing.repos import Repo
from tests.hooks.conftest import entry_text


def promote_on_branch(gm: Any, repo: Repo, branch: str, entry_id: str) -> None:
    repo.git("checkout", "-q", "-b", branch, "main")
    repo.write(f".memory/entries/{entry_id}.md", entry_text(entry_id, f"note {entry_id}\n"))
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    repo.commit_all(f"promote {entry_id}")


def two_branches(gm: Any, repo: Repo) -> None:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    repo.write(".memory/entries/base.md", entry_text("base", "base note\n"))
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    repo.commit_all("memory base")
    promote_on_branch(gm, repo, "left", "left-entry")
    promote_on_branch(gm, repo, "right", "right-entry")
    repo.git("checkout", "-q", "left")


def test_merge_driver_rebuilds_index(gm: Any, repo: Repo, bin_dir: Path) -> None:
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    repo.commit_all("register merge driver")
    two_branches(gm, repo)
    merged = repo.git("merge", "--no-edit", "right", check=False)
    assert "CONFLICT" not in merged
    index = parse_index((repo.root / ".memory" / "index.json").read_text())
    assert [e["id"] for e in index.entries] == ["base", "left-entry", "right-entry"]
    assert "<<<<<<<" not in (repo.root / ".memory" / "index.json").read_text()
    check = gm(["reindex", "--check"], cwd=repo.root)
    assert check.exit_code == 0, check.stdout


def test_without_the_driver_the_same_merge_conflicts(gm: Any, repo: Repo) -> None:
    two_branches(gm, repo)
    result = repo.git("merge", "--no-edit", "right", check=False)
    assert "CONFLICT (content): Merge conflict in .memory/index.json" in result


def test_merge_index_command_three_way(gm: Any, tmp_path: Path) -> None:
    def index(**priorities: int) -> str:
        items = ",\n".join(
            f'{{"id": "{i}", "type": "work_fact", "scene": null, "priority": {p}, '
            f'"summary": "{i}"}}'
            for i, p in priorities.items()
        )
        return f'{{"format": "git-memory-index@v1", "entries": [{items}], "scenes": []}}'

    base, ours, theirs = (tmp_path / n for n in ("o", "a", "b"))
    base.write_text(index(x=50, gone=50))
    ours.write_text(index(x=70, gone=50, mine=50))
    theirs.write_text(index(x=50, theirs=50))
    result = gm(["merge-index", str(base), str(ours), str(theirs), ".memory/index.json"])
    assert result.exit_code == 0, result.stderr
    merged = parse_index(ours.read_text())
    assert [(e["id"], e["priority"]) for e in merged.entries] == [
        ("mine", 50),
        ("theirs", 50),
        ("x", 70),
    ]


def test_merge_index_refuses_invalid_versions(gm: Any, tmp_path: Path) -> None:
    good = tmp_path / "good"
    good.write_text('{"format": "git-memory-index@v1", "entries": [], "scenes": []}')
    bad = tmp_path / "bad"
    bad.write_text("<<<<<<< not json")
    result = gm(["merge-index", str(good), str(bad), str(good)])
    assert result.exit_code == 1
    assert "GM_FORMAT_INDEX_INVALID" in result.stdout
    missing = gm(["merge-index", str(good), str(tmp_path / "nope"), str(good)])
    assert missing.exit_code == 1
    assert "GM_MERGE_INPUT_UNREADABLE" in missing.stderr


def test_merge_driver_rebuilds_from_the_merged_tree_not_three_documents(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    # One branch retires an entry (status line), the other rewords it (body): the entry file
    # merges cleanly into a retired entry, which the index of the merged tree does not list.
    # Merging the three index documents would keep the reworded item.
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    assert gm(["init"], cwd=repo.root).exit_code == 0
    entry = ".memory/entries/shared.md"
    repo.write(entry, entry_text("shared", "first line\n\nsecond line\n"))
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    repo.commit_all("memory base")
    repo.git("checkout", "-q", "-b", "retire")
    original = (repo.root / entry).read_text()
    repo.write(entry, original.replace("status: approved", "status: deprecated"))
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    repo.commit_all("retire shared")
    repo.git("checkout", "-q", "-b", "reword", "main")
    repo.write(entry, original.replace("first line", "reworded first line"))
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    repo.commit_all("reword shared")
    merged = repo.git("merge", "--no-edit", "retire", check=False)
    assert "CONFLICT" not in merged, merged
    assert "status: deprecated" in (repo.root / entry).read_text()
    index = parse_index((repo.root / ".memory" / "index.json").read_text())
    assert index.entries == ()
    check = gm(["reindex", "--check"], cwd=repo.root)
    assert check.exit_code == 0, check.stdout


@pytest.mark.parametrize(
    ("document", "problem"),
    [
        ('{"format": "git-memory-index@v1", "entries": [{"id": "\\ud83d"}]}', "surrogate"),
        ('{"format": "git-memory-index@v1", "entries": [{"type": "work_fact"}]}', "'id'"),
        ('{"format": "git-memory-index@v1", "entries": [{"id": 7}]}', "'id'"),
        ('{"format": "git-memory-index@v1", "entries": [{"id": "x", "priority": NaN}]}', "NaN"),
        ('{"format": "git-memory-index@v1", "scenes": [{"name": "s", "heat": -Infinity}]}', "Inf"),
    ],
)
def test_merge_index_refuses_unwritable_versions(
    gm_proc: Any, tmp_path: Path, document: str, problem: str
) -> None:
    good = tmp_path / "good"
    good.write_text('{"format": "git-memory-index@v1", "entries": []}')
    hostile = tmp_path / "hostile"
    hostile.write_text(document)
    result = gm_proc(["merge-index", str(good), str(hostile), str(good)], cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "GM_FORMAT_INDEX_INVALID" in result.stdout
    assert problem in result.stdout
    assert hostile.read_text() == document
