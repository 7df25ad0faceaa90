"""`git memory init` and `git memory status` in real repositories and linked worktrees."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.repos import Repo


def test_init_creates_memory_root_idempotently(gm: Any, repo: Repo) -> None:
    before = repo.snapshot()
    first = gm(["init", "--format", "json"], cwd=repo.root)
    assert first.exit_code == 0, first.stderr
    assert set(first.json()["created"]) == {
        ".memory/entries/",
        ".memory/scenes/",
        ".memory/skills/",
        ".memory/index.json",
    }
    index = (repo.root / ".memory" / "index.json").read_text()
    assert '"format": "git-memory-index@v1"' in index
    second = gm(["init", "--format", "json"], cwd=repo.root)
    assert second.json()["created"] == []
    assert repo.snapshot() == before


def test_init_refuses_symlinked_memory_root(gm: Any, repo: Repo, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.mkdir()
    (repo.root / ".memory").symlink_to(target)
    result = gm(["init"], cwd=repo.root)
    assert result.exit_code == 1
    assert "[GM_SYMLINK_REFUSED]" in result.stderr
    assert list(target.iterdir()) == []


def test_init_refuses_a_file_in_the_way(gm: Any, repo: Repo) -> None:
    repo.write(".memory", "not a dir")
    result = gm(["init"], cwd=repo.root)
    assert result.exit_code == 1
    assert "[GM_NOT_A_DIRECTORY]" in result.stderr


def test_status_in_linked_worktree(gm: Any, repo: Repo, tmp_path: Path) -> None:
    linked = repo.add_worktree(tmp_path / "wt", "topic")
    main_status = gm(["status", "--format", "json"], cwd=repo.root).json()
    linked_status = gm(["status", "--format", "json"], cwd=linked.root).json()
    assert main_status["format"] == "git-memory-status@v1"
    assert main_status["memoryRoot"] == ".memory"
    assert main_status["binding"]["repositoryKey"] == linked_status["binding"]["repositoryKey"]
    assert main_status["binding"]["worktreeKey"] != linked_status["binding"]["worktreeKey"]


def test_status_text_and_repository_option(gm: Any, repo: Repo, tmp_path: Path) -> None:
    result = gm(["status", "--repository", str(repo.root)], cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    assert "memory root: .memory/ (missing; create it with `git memory init`)" in result.stdout


def test_invalid_memory_root_config(gm: Any, repo: Repo) -> None:
    repo.git("config", "memory.root", "/abs")
    result = gm(["status"], cwd=repo.root)
    assert result.exit_code == 1
    assert "[GM_MEMORY_ROOT_INVALID]" in result.stderr


def test_status_reports_a_symlinked_memory_root_instead_of_failing(
    gm: Any, repo: Repo, tmp_path: Path
) -> None:
    from git_memory.repo.binding import discover_worktree
    from git_memory.store.db import open_state

    open_state(discover_worktree(repo.root).state_home).close()  # state exists, as after use
    (tmp_path / "elsewhere").mkdir()
    (repo.root / ".memory").symlink_to(tmp_path / "elsewhere")
    result = gm(["status", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    document = result.json()
    assert document["counts"]["memory"] == {"error": "GM_SYMLINK_REFUSED"}
    assert any("GM_SYMLINK_REFUSED" in note for note in document["notes"])


def test_init_ends_with_the_next_steps_for_this_clone(gm: Any, repo: Repo) -> None:
    first = gm(["init"], cwd=repo.root)
    assert first.exit_code == 0, first.stderr
    steps = [
        line.split("#")[0].strip() for line in first.stdout.split("next:\n", 1)[1].splitlines()
    ]
    assert steps == [
        "git memory hooks install",
        "git memory sessions sync",
        "git memory extract --runner builtin",
    ]
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    again = gm(["init", "--format", "json"], cwd=repo.root).json()
    assert again["created"] == []
    assert again["next"] == ["git memory sessions sync", "git memory extract --runner builtin"]
