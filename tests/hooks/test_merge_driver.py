"""The index.json merge driver resolves a real `git merge` of two promoting branches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
