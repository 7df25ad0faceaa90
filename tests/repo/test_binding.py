"""RepositoryBinding@v1: keys, linked worktrees, symlinks and refusals."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from pytest_git import GitRepo

from git_memory.errors import GitMemoryError
from git_memory.repo.binding import discover_worktree
from git_memory.repo.blobs import blob_oid
from git_memory.repo.remote import public_identity
from tests.repos import Repo, git


def test_binding_has_no_absolute_path(git_repo: GitRepo) -> None:
    binding = discover_worktree(git_repo.workspace).binding()
    text = json.dumps(binding.to_json())
    assert str(git_repo.workspace) not in text
    assert str(Path.home()) not in text
    assert binding.memory_root == ".memory"
    assert binding.common_directory_identity.device.isdigit()


def test_linked_worktree_shares_repository_key(repo: Repo, tmp_path: Path) -> None:
    linked = repo.add_worktree(tmp_path / "linked", "feature")
    main_binding = discover_worktree(repo.root).binding()
    linked_binding = discover_worktree(linked.root).binding()
    assert main_binding.repository_key == linked_binding.repository_key
    assert main_binding.worktree_key != linked_binding.worktree_key


def test_subdirectory_and_symlink_resolve_to_the_same_worktree(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    (git_repo.workspace / "src" / "pkg").mkdir(parents=True)
    alias = tmp_path / "alias"
    alias.symlink_to(git_repo.workspace)
    direct = discover_worktree(git_repo.workspace).binding()
    assert discover_worktree(git_repo.workspace / "src" / "pkg").binding() == direct
    assert discover_worktree(alias).binding() == direct


def test_keys_depend_on_the_private_secret(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    first = discover_worktree(git_repo.workspace).binding()
    monkeypatch.setenv("GIT_MEMORY_HOME", str(tmp_path / "other-home"))
    second = discover_worktree(git_repo.workspace).binding()
    assert first.repository_key != second.repository_key
    assert first.root_realpath_digest == second.root_realpath_digest


def test_secret_file_is_private(git_repo: GitRepo, hermetic_env: dict[str, Path]) -> None:
    discover_worktree(git_repo.workspace).binding()
    secret = hermetic_env["state"] / "secret.json"
    assert secret.stat().st_mode & 0o777 == 0o600
    assert hermetic_env["state"].stat().st_mode & 0o777 == 0o700


def test_corrupt_secret_is_a_clear_error(git_repo: GitRepo, hermetic_env: dict[str, Path]) -> None:
    (hermetic_env["state"] / "secret.json").write_text("{not json")
    with pytest.raises(GitMemoryError) as info:
        discover_worktree(git_repo.workspace).binding()
    assert info.value.code == "GM_SECRET_CORRUPT"


def test_bare_repository_is_refused(tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    with pytest.raises(GitMemoryError) as info:
        discover_worktree(bare)
    assert info.value.code == "GM_BARE_REPOSITORY"


def test_inside_git_dir_is_refused(git_repo: GitRepo) -> None:
    with pytest.raises(GitMemoryError) as info:
        discover_worktree(git_repo.workspace / ".git" / "refs")
    assert info.value.code == "GM_INSIDE_GIT_DIR"


def test_outside_any_repository(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(GitMemoryError) as info:
        discover_worktree(plain)
    assert info.value.code == "GM_NOT_A_WORKTREE"


def test_memory_root_config_and_legacy_layout(git_repo: GitRepo) -> None:
    (git_repo.workspace / ".threadshare" / "memory").mkdir(parents=True)
    assert discover_worktree(git_repo.workspace).memory_root == ".threadshare/memory"
    (git_repo.workspace / ".memory").mkdir()
    assert discover_worktree(git_repo.workspace).memory_root == ".memory"
    git_repo.api.git.config("memory.root", "docs/memory")
    assert discover_worktree(git_repo.workspace).memory_root == "docs/memory"
    for bad in ("../outside", ".git/memory", "/abs/memory"):
        git_repo.api.git.config("memory.root", bad)
        with pytest.raises(GitMemoryError) as info:
            _ = discover_worktree(git_repo.workspace).memory_root
        assert info.value.code == "GM_MEMORY_ROOT_INVALID"


def test_state_home_from_git_config(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("GIT_MEMORY_HOME")
    git_repo.api.git.config("memory.home", str(tmp_path / "configured"))
    assert discover_worktree(git_repo.workspace).state_home == tmp_path / "configured"


@pytest.mark.parametrize(
    ("url", "identity"),
    [
        ("https://user:token@GitHub.com/org/repo.git?x=1#frag", "github.com/org/repo"),
        ("git@github.com:org/repo.git", "github.com/org/repo"),
        ("ssh://git@example.org:2222/team/app.git", "example.org:2222/team/app"),
        ("https://example.org/group/sub/project/", "example.org/group/sub/project"),
        ("file:///srv/git/repo.git", None),
        ("/srv/git/repo.git", None),
        ("../sibling", None),
        ("", None),
    ],
)
def test_public_identity(url: str, identity: str | None) -> None:
    assert public_identity(url) == identity


def test_origin_identity_in_binding(git_repo: GitRepo) -> None:
    git_repo.api.create_remote("origin", "https://u:p@example.com/team/app.git")
    assert discover_worktree(git_repo.workspace).binding().public_repository_identity == (
        "example.com/team/app"
    )


def test_blob_oid_matches_git_hash_object(git_repo: GitRepo) -> None:
    path = git_repo.workspace / "f.txt"
    path.write_text("hello\n")
    assert blob_oid(path.read_bytes()) == git_repo.api.git.hash_object(str(path))
    assert os.path.exists(path)


@pytest.mark.parametrize(
    "bad",
    [
        "vendor/.git/mem",
        "vendor/.GIT/mem",
        ".gitmodules",
        "docs/.gitattributes",
        "mem\n* filter=evil",
        "mem\x1b[8m",
        "mem\u202eyrt",
        "mem\u2066x",
        "my memory",
        "mem/*",
    ],
)
def test_memory_root_refuses_git_names_and_invisible_text(
    gm_proc: Any, git_repo: GitRepo, bad: str
) -> None:
    git_repo.api.git.config("memory.root", bad)
    with pytest.raises(GitMemoryError) as info:
        _ = discover_worktree(git_repo.workspace).memory_root
    assert info.value.code == "GM_MEMORY_ROOT_INVALID"
    # Installing the hooks writes the memory root into `.gitattributes`: a newline there
    # would inject an attribute line for every file.
    result = gm_proc(["hooks", "install"], cwd=git_repo.workspace)
    assert result.returncode == 1, result.stderr
    assert "[GM_MEMORY_ROOT_INVALID]" in result.stderr
    assert not (git_repo.workspace / ".gitattributes").exists()
