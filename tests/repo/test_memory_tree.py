"""One reader of the memory tree and one symlink policy: a link is reported, never followed,
never silently left out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from git_memory.errors import GitMemoryError
from git_memory.repo import memory_tree
from tests.promote.helpers import prepare_request, seed_candidate
from tests.promote.scenario import build, prepare
from tests.repos import Repo


def test_the_listing_reports_links_and_leaves_out_dot_names(tmp_path: Path) -> None:
    (tmp_path / "m" / "entries").mkdir(parents=True)
    (tmp_path / "m" / "entries" / "a.md").write_text("a")
    (tmp_path / "m" / "entries" / ".gm-promote-x.new").write_text("partial")
    (tmp_path / "m" / "entries" / "b.md").symlink_to(tmp_path / "elsewhere.md")
    listing = memory_tree.list_dir(tmp_path, ["m", "entries"])
    assert [(item.name, item.is_file, item.is_symlink) for item in listing] == [
        ("a.md", True, False),
        ("b.md", False, True),
    ]
    with pytest.raises(GitMemoryError) as caught:
        memory_tree.refuse_links(listing, ["m", "entries"])
    assert caught.value.code == "GM_SYMLINK_REFUSED"
    assert "m/entries/b.md" in caught.value.message
    assert memory_tree.list_dir(tmp_path, ["absent"]) == []


def test_prepare_refuses_a_linked_entry_it_cannot_see(repo: Repo, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("not memory\n")
    (repo.root / ".memory" / "entries").mkdir(parents=True, exist_ok=True)
    (repo.root / ".memory" / "entries" / "linked.md").symlink_to(outside)
    item = seed_candidate(repo.root, "c1", "Some fact")
    with pytest.raises(GitMemoryError) as caught:
        prepare(repo, prepare_request(item))
    assert caught.value.code == "GM_SYMLINK_REFUSED"


def test_promote_writes_the_index_reindex_expects(gm: Any, repo: Repo) -> None:
    scenario = build(repo)
    assert gm(scenario.promote_args(), cwd=repo.root).exit_code == 0
    check = gm(["reindex", "--check", "--format", "json"], cwd=repo.root)
    assert check.exit_code == 0, check.stdout
    assert check.json()["changed"] is False
