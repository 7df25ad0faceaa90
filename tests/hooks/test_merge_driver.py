"""The index.json merge driver resolves a real `git merge` of two promoting branches."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from git_memory.formats.index_json import parse_index
from tests.hooks.conftest import entry_text
from tests.repos import Repo


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


SHARED = ".memory/entries/shared.md"


def change_shared(gm: Any, repo: Repo, old: str, new: str, message: str) -> None:
    """Edit the shared entry, reindex and commit (as a promotion would)."""
    repo.write(SHARED, (repo.root / SHARED).read_text().replace(old, new))
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    repo.commit_all(message)


def retire_and_reword(gm: Any, repo: Repo) -> None:
    """Branch `retire` retires the shared entry (status line), branch `reword` (checked out)
    rewords it (body): the entry file merges cleanly into a retired entry, which the index of
    the merged tree does not list. Merging the three index documents would keep the
    reworded item."""
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    assert gm(["init"], cwd=repo.root).exit_code == 0
    repo.write(SHARED, entry_text("shared", "first line\n\nsecond line\n"))
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    repo.commit_all("memory base")
    repo.git("checkout", "-q", "-b", "retire")
    change_shared(gm, repo, "status: approved", "status: deprecated", "retire shared")
    repo.git("checkout", "-q", "-b", "reword", "main")
    change_shared(gm, repo, "first line", "reworded first line", "reword shared")


def assert_rebuilt_without_shared(gm: Any, repo: Repo, output: str) -> None:
    assert "CONFLICT" not in output, output
    assert "index.json rebuilt from the merged tree" in output, output
    assert "status: deprecated" in (repo.root / SHARED).read_text()
    index = parse_index((repo.root / ".memory" / "index.json").read_text())
    assert index.entries == ()
    check = gm(["reindex", "--check"], cwd=repo.root)
    assert check.exit_code == 0, check.stdout


def test_merge_driver_rebuilds_from_the_merged_tree_not_three_documents(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    retire_and_reword(gm, repo)
    merged = repo.git("merge", "--no-edit", "retire", check=False)
    assert_rebuilt_without_shared(gm, repo, merged)


def assert_merged_keeping_every_entry(gm: Any, repo: Repo, output: str) -> None:
    """Nothing names the commit: the three documents are merged, no entry is dropped, and
    the conflict the documents cannot settle is named for `git memory reindex`."""
    assert "CONFLICT" not in output, output
    assert "index.json merged" in output, output
    assert "run `git memory reindex` after resolving" in output, output
    text = (repo.root / ".memory" / "index.json").read_text()
    assert "<<<<<<<" not in text
    assert [e["id"] for e in parse_index(text).entries] == ["shared"]
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    assert parse_index((repo.root / ".memory" / "index.json").read_text()).entries == ()


def test_a_single_cherry_pick_falls_back_to_three_documents(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    # git 2.39 names the commit of a single pick nowhere a merge driver can see.
    retire_and_reword(gm, repo)
    picked = repo.git("cherry-pick", "retire", check=False)
    assert_merged_keeping_every_entry(gm, repo, picked)
    assert "status: deprecated" in (repo.root / SHARED).read_text()


def test_a_cherry_pick_of_a_range_is_rebuilt_from_the_picked_tree(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    retire_and_reword(gm, repo)
    repo.git("checkout", "-q", "retire")
    repo.write(".memory/entries/later.md", entry_text("later", "a later note\n"))
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    repo.commit_all("promote later")
    repo.git("checkout", "-q", "reword")
    picked = repo.git("cherry-pick", "main..retire", check=False)
    # The first pick merges index.json (the sequencer names it); the second applies cleanly.
    assert "index.json rebuilt from the merged tree" in picked, picked
    assert "status: deprecated" in (repo.root / SHARED).read_text()
    index = parse_index((repo.root / ".memory" / "index.json").read_text())
    assert [e["id"] for e in index.entries] == ["later"]
    assert gm(["reindex", "--check"], cwd=repo.root).exit_code == 0


def test_a_rebase_is_rebuilt_from_the_rebased_tree(gm: Any, repo: Repo, bin_dir: Path) -> None:
    retire_and_reword(gm, repo)
    repo.git("checkout", "-q", "retire")
    rebased = repo.git("rebase", "reword", check=False)
    assert_rebuilt_without_shared(gm, repo, rebased)
    assert "reworded first line" in (repo.root / SHARED).read_text()


def test_a_single_revert_falls_back_to_three_documents(gm: Any, repo: Repo, bin_dir: Path) -> None:
    # Reverting the rewording after the retirement: the entry reads as first written and
    # stays retired; nothing names the reverted commit, so the documents are merged.
    retire_and_reword(gm, repo)
    change_shared(gm, repo, "status: approved", "status: deprecated", "retire reworded")
    reverted = repo.git("revert", "--no-edit", "HEAD~1", check=False)
    assert "CONFLICT" not in reverted, reverted
    assert "index.json merged" in reverted, reverted
    assert "reworded" not in (repo.root / SHARED).read_text()
    assert gm(["reindex", "--check"], cwd=repo.root).exit_code in (0, 1)


def test_a_pick_whose_commit_cannot_be_found_falls_back_to_three_documents(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    # `git am -3` merges trees built from a patch: no commit is looked for, the three index
    # documents are merged (no conflict markers), and `reindex` repairs what they miss.
    retire_and_reword(gm, repo)
    patch = repo.git("format-patch", "-1", "-o", str(repo.root.parent / "patches"), "retire")
    applied = repo.git("am", "-3", patch.strip(), check=False)
    assert "CONFLICT" not in applied, applied
    assert "index.json merged: 1 entries" in applied, applied
    text = (repo.root / ".memory" / "index.json").read_text()
    assert "<<<<<<<" not in text
    assert [e["id"] for e in parse_index(text).entries] == ["shared"]
    assert "status: deprecated" in (repo.root / SHARED).read_text()


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


def twins(gm: Any, repo: Repo) -> None:
    """Branches `alpha` and `beta` add the same entry with different bodies: both change
    index.json the same way, so the index versions cannot tell them apart."""
    retire_and_reword(gm, repo)
    for branch in ("alpha", "beta"):
        repo.git("checkout", "-q", "-b", branch, "main")
        repo.write(".memory/entries/twin.md", entry_text("twin", f"same summary\n\n{branch}\n"))
        assert gm(["reindex"], cwd=repo.root).exit_code == 0
        repo.commit_all(f"promote twin ({branch})")
    assert repo.git("rev-parse", "alpha:.memory/index.json") == repo.git(
        "rev-parse", "beta:.memory/index.json"
    )
    repo.git("checkout", "-q", "reword")


def test_a_pick_two_commits_could_explain_is_not_guessed(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    twins(gm, repo)
    picked = repo.git("cherry-pick", "alpha", check=False)
    assert "index.json merged: 2 entries" in picked, picked
    assert "alpha" in (repo.root / ".memory" / "entries" / "twin.md").read_text()
    assert gm(["reindex", "--check"], cwd=repo.root).exit_code == 0


@pytest.mark.parametrize(
    "command", [("cherry-pick", "main..alpha"), ("rebase", "--onto", "reword", "main", "alpha")]
)
def test_the_commit_the_sequencer_names_is_the_one_picked(
    gm: Any, repo: Repo, bin_dir: Path, command: tuple[str, ...]
) -> None:
    # A range pick writes its todo list, a rebase the commands it has done: the commit they
    # name is the one being merged.
    twins(gm, repo)
    picked = repo.git(*command, check=False)
    assert "index.json rebuilt from the merged tree: 2 entries" in picked, picked
    assert "alpha" in (repo.root / ".memory" / "entries" / "twin.md").read_text()
    assert gm(["reindex", "--check"], cwd=repo.root).exit_code == 0


def _blob(repo: Repo, spec: str) -> bytes:
    return subprocess.run(
        ["git", "cat-file", "blob", spec], cwd=repo.root, capture_output=True, check=True
    ).stdout


def test_a_decoy_commit_on_a_ref_never_stands_in_for_the_picked_one(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    """The picked commit P is on no ref; a decoy D on a ref makes the same index.json change
    but also deletes another entry's file. Rebuilding from D's trees would drop that entry
    from the index; only the commit git names may be used, so the documents are merged."""
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    assert gm(["init"], cwd=repo.root).exit_code == 0
    repo.write(".memory/entries/base.md", entry_text("base", "base note\n"))
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    repo.commit_all("memory base")
    repo.git("checkout", "-q", "-b", "picked", "main")
    repo.write(".memory/entries/added.md", entry_text("added", "an added note\n"))
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    picked = repo.commit_all("promote added")
    repo.git("checkout", "-q", "-b", "work", "main")
    repo.git("branch", "-q", "-D", "picked")  # P is on no ref now
    repo.write(".memory/entries/kept.md", entry_text("kept", "a kept note\n"))
    assert gm(["reindex"], cwd=repo.root).exit_code == 0
    repo.commit_all("promote kept")
    repo.git("checkout", "-q", "-b", "decoy")
    index = ".memory/index.json"
    (repo.root / index).write_bytes(_blob(repo, f"{picked}~1:{index}"))
    repo.commit_all("decoy base: the picked commit's parent index")
    (repo.root / ".memory/entries/kept.md").unlink()
    repo.write(".memory/entries/added.md", entry_text("added", "an added note\n"))
    (repo.root / index).write_bytes(_blob(repo, f"{picked}:{index}"))
    repo.commit_all("decoy: the same index change, and kept.md deleted")
    assert repo.git("rev-parse", f"decoy:{index}") == repo.git("rev-parse", f"{picked}:{index}")
    repo.git("checkout", "-q", "work")
    output = repo.git("cherry-pick", picked, check=False)
    assert "CONFLICT" not in output, output
    assert "rebuilt" not in output, output
    ids = [e["id"] for e in parse_index((repo.root / index).read_text()).entries]
    assert sorted(ids) == ["added", "base", "kept"]
    assert (repo.root / ".memory/entries/kept.md").exists()
    assert gm(["reindex", "--check"], cwd=repo.root).exit_code == 0
