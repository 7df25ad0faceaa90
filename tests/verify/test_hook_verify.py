"""The pre-commit hook runs verify only when `memory.hookVerify` is on."""

from __future__ import annotations

from typing import Any

from tests.hooks.conftest import commit, head
from tests.repos import Repo
from tests.verify.helpers import rotting_project


def _installed_with_stale_memory(gm: Any, repo: Repo) -> None:
    rotting_project(repo)
    result = gm(["hooks", "install"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    repo.write("notes.txt", "x\n")
    repo.git("add", "notes.txt")


def test_off_by_default_stale_memory_does_not_stop_a_commit(gm: Any, repo: Repo) -> None:
    _installed_with_stale_memory(gm, repo)
    before = head(repo)
    result = commit(repo)
    assert result.returncode == 0, result.stderr
    assert head(repo) != before
    assert "stale" not in result.stderr


def test_hook_verify_on_stops_a_commit_over_stale_memory(gm: Any, repo: Repo) -> None:
    _installed_with_stale_memory(gm, repo)
    repo.git("config", "memory.hookVerify", "true")
    before = head(repo)
    result = commit(repo)
    assert result.returncode == 1
    assert ".memory/entries/deploy-with-make.md: stale: `make deploy`" in result.stderr
    assert "memory.hookVerify is on" in result.stderr
    assert head(repo) == before
    # Retiring the stale memory (or --no-verify) lets the commit through.
    assert commit(repo, "--no-verify").returncode == 0
