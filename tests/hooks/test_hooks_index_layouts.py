"""Index layouts libgit2 cannot read, gitlinks and a moved memory root, through `git commit`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.hooks.conftest import SECRET, commit, entry_text
from tests.hooks.stopped import commit_stopped
from tests.repos import Repo


def _install(gm: Any, repo: Repo) -> None:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    repo.commit_all("memory root")


def test_split_index_commit_is_linted_not_an_internal_error(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    _install(gm, repo)
    repo.git("config", "core.splitIndex", "true")
    repo.git("update-index", "--split-index")
    assert list((repo.root / ".git").glob("sharedindex.*"))
    repo.write(".memory/entries/leak.md", entry_text("leak", f"token {SECRET}\n"))
    repo.git("add", ".memory/entries/leak.md")
    commit_stopped(repo, "GM_LINT_GITHUB_TOKEN")

    repo.write(".memory/entries/leak.md", entry_text("leak", "a clean note\n"))
    repo.git("add", ".memory/entries/leak.md")
    repo.git("add", "-A")
    passed = commit(repo)
    assert passed.returncode == 0, passed.stderr


def test_gitlink_in_the_memory_root_does_not_stop_commits(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    _install(gm, repo)
    # A submodule's commit is not in this repository's object database.
    missing = "0123456789abcdef0123456789abcdef01234567"
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{missing},.memory/vendored")
    repo.write("notes.txt", "unrelated\n")
    repo.git("add", "notes.txt")
    passed = commit(repo)
    assert passed.returncode == 0, passed.stderr
    assert "GM_LINT_GITLINK" in passed.stderr
    lint = gm(["lint", "--staged"], cwd=repo.root)
    assert lint.exit_code == 0
    assert ".memory/vendored" in lint.stdout


def test_files_staged_under_the_previous_memory_root_are_linted(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    _install(gm, repo)
    repo.git("config", "memory.root", "docs/memory")
    repo.write(".memory/entries/leak.md", entry_text("leak", f"token {SECRET}\n"))
    repo.git("add", ".memory/entries/leak.md")
    assert ".memory/entries/leak.md" in commit_stopped(repo, "GM_LINT_GITHUB_TOKEN")
