"""A write killed between its temp file and the rename: lint blocks the leftover, the hook
stops its commit, and the next write in that directory removes it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from git_memory.failpoints import FAILPOINT_EXIT_STATUS
from tests.hooks.conftest import entry_text
from tests.hooks.stopped import commit_stopped, dead_pid
from tests.repos import Repo


def _leftovers(directory: Path) -> list[Path]:
    return sorted(directory.glob(".*.gm-tmp"))


def _killed_reindex(gm_proc: Any, repo: Repo) -> Path:
    assert gm_proc(["init"], cwd=repo.root).returncode == 0
    repo.write(".memory/entries/note.md", entry_text("note", "a clean note\n"))
    killed = gm_proc(
        ["reindex"], cwd=repo.root, env={"GIT_MEMORY_FAILPOINT": "safefs.before-rename"}
    )
    assert killed.returncode == FAILPOINT_EXIT_STATUS, killed.stderr
    (temp,) = _leftovers(repo.root / ".memory")
    assert temp.name.startswith(".index.json.")
    return temp


def test_lint_blocks_a_leftover_temp(gm_proc: Any, repo: Repo) -> None:
    temp = _killed_reindex(gm_proc, repo)
    result = gm_proc(["lint"], cwd=repo.root)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "GM_LINT_WRITE_LEFTOVER" in result.stdout
    assert temp.name in result.stdout


def test_hook_stops_a_commit_carrying_a_leftover_temp(
    gm_proc: Any, repo: Repo, bin_dir: Path
) -> None:
    assert gm_proc(["hooks", "install"], cwd=repo.root).returncode == 0
    _killed_reindex(gm_proc, repo)
    repo.git("add", "-A")
    commit_stopped(repo, "GM_LINT_WRITE_LEFTOVER")


def test_next_write_removes_the_leftover(gm_proc: Any, repo: Repo) -> None:
    _killed_reindex(gm_proc, repo)
    result = gm_proc(["reindex"], cwd=repo.root)
    assert result.returncode == 0, result.stderr
    assert _leftovers(repo.root / ".memory") == []
    assert gm_proc(["lint"], cwd=repo.root).returncode == 0


def test_promotion_artifact_is_never_linted_clean(gm: Any, repo: Repo) -> None:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    repo.write(".memory/entries/.gm-promote-0123.hold", "old bytes\n")
    result = gm(["lint"], cwd=repo.root)
    assert result.exit_code == 1
    assert "GM_LINT_WRITE_LEFTOVER" in result.stdout


def test_hook_stops_a_leftover_temp_outside_the_memory_root(
    gm_proc: Any, repo: Repo, bin_dir: Path
) -> None:
    assert gm_proc(["hooks", "install"], cwd=repo.root).returncode == 0
    # An `assemble` killed between its temp file and the rename leaves one at the root.
    repo.write(f".CLAUDE.md.{dead_pid()}.0123456789ab.gm-tmp", "# half a context file\n")
    repo.git("add", "-A")
    assert ".CLAUDE.md." in commit_stopped(repo, "GM_LINT_WRITE_LEFTOVER")
