"""The state home is never inside a worktree, and a relative one is refused."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.repos import Repo, make_repo


def _commit_everything(repo: Repo) -> None:
    repo.git("add", "-A")
    repo.git("commit", "-q", "--allow-empty", "-m", "after status")


def _committed(repo: Repo) -> list[str]:
    return repo.git("ls-tree", "-r", "--name-only", "HEAD").split()


def test_relative_memory_home_is_refused(
    gm_proc: Any, repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GIT_MEMORY_HOME")
    repo.git("config", "memory.home", "state")
    result = gm_proc(["status"], cwd=repo.root)
    assert result.returncode == 1, result.stderr
    assert "[GM_STATE_HOME_RELATIVE]" in result.stderr
    assert not (repo.root / "state").exists()
    _commit_everything(repo)
    assert not any(name.startswith("state/") for name in _committed(repo))


def test_relative_environment_home_is_refused(gm: Any, repo: Repo) -> None:
    os.environ["GIT_MEMORY_HOME"] = "relative-state"
    result = gm(["status"], cwd=repo.root)
    assert result.exit_code == 1
    assert "[GM_STATE_HOME_RELATIVE]" in result.stderr


@pytest.mark.parametrize("source", ["GIT_MEMORY_HOME", "memory.home", "default"])
def test_home_inside_the_worktree_is_refused(
    gm_proc: Any, repo: Repo, monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    inside = repo.root / "build" / "state"
    env: dict[str, str] = {}
    if source == "GIT_MEMORY_HOME":
        env["GIT_MEMORY_HOME"] = str(inside)
    else:
        monkeypatch.delenv("GIT_MEMORY_HOME")
    if source == "memory.home":
        repo.git("config", "memory.home", str(inside))
    if source == "default":
        env["XDG_STATE_HOME"] = str(repo.root / "xdg")
    result = gm_proc(["status"], cwd=repo.root, env=env)
    assert result.returncode == 1, result.stderr
    assert "[GM_STATE_HOME_IN_WORKTREE]" in result.stderr
    label = "the default state home" if source == "default" else source
    assert f"({label})" in result.stderr
    # The attack: `git add -A && git commit` after any command committed the session index
    # and the origin secret. Nothing of the state was created, so nothing is committed.
    _commit_everything(repo)
    names = _committed(repo)
    assert not [n for n in names if n.endswith(("secret.json", ".sqlite3"))], names


def test_home_inside_another_worktree_is_refused(
    gm: Any, repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = make_repo(tmp_path / "other")
    monkeypatch.setenv("GIT_MEMORY_HOME", str(other.root / "state"))
    result = gm(["status"], cwd=repo.root)
    assert result.exit_code == 1
    assert "[GM_STATE_HOME_IN_WORKTREE]" in result.stderr


def test_home_reached_through_a_symlink_into_the_worktree(
    gm: Any, repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo.root / "cache").mkdir()
    link = tmp_path / "looks-outside"
    link.symlink_to(repo.root / "cache")
    monkeypatch.setenv("GIT_MEMORY_HOME", str(link / "state"))
    result = gm(["status"], cwd=repo.root)
    assert "[GM_STATE_HOME_IN_WORKTREE]" in result.stderr


def test_home_outside_every_worktree_is_used(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    result = gm(["status"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
