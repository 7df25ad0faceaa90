"""The pre-commit hook warns when the staged memory changes leave an assembled agent's file
behind, and when the file assemble brought up to date is left out of the commit; the commit
goes on either way (docs/guide-context.md, "In step")."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from git_memory.assemble.render import TARGET_FILES
from git_memory.formats.generated_block import AGENT_FILES
from tests.hooks.conftest import commit, entry_text
from tests.repos import Repo

BEHIND = (
    "git-memory: warning: the staged memory changes are newer than CLAUDE.md, AGENTS.md: "
    "run `git memory assemble`, then `git add` what it updates"
)
UNSTAGED = (
    "git-memory: warning: AGENTS.md, CLAUDE.md are up to date with this memory but not staged: "
    "git add AGENTS.md CLAUDE.md"
)


def _assembled(gm: Any, repo: Repo) -> None:
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    repo.write(".memory/entries/queue.md", entry_text("queue", "The queue restarts at 04:00.\n"))
    assert gm(["assemble"], cwd=repo.root).exit_code == 0
    repo.git("add", "-A")
    first = commit(repo)
    assert first.returncode == 0, first.stderr
    assert "warning" not in first.stderr


def test_an_entry_edited_by_hand_after_assemble_is_warned_about(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    _assembled(gm, repo)
    entry = repo.write(
        ".memory/entries/release.md", entry_text("release", "Releases are cut on Tuesdays.\n")
    )
    later = time.time() + 5  # later than any file assemble wrote, whatever the clock's grain
    os.utime(entry, (later, later))
    repo.git("add", ".memory")
    committed = commit(repo)
    assert committed.returncode == 0, committed.stderr
    assert BEHIND in committed.stderr


def _second_entry_assembled(gm: Any, repo: Repo) -> None:
    _assembled(gm, repo)
    repo.write(
        ".memory/entries/release.md", entry_text("release", "Releases are cut on Tuesdays.\n")
    )
    assert gm(["assemble"], cwd=repo.root).exit_code == 0


def test_an_assembled_file_left_out_of_the_commit_is_named(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    _second_entry_assembled(gm, repo)
    repo.git("add", ".memory")
    committed = commit(repo)
    assert committed.returncode == 0, committed.stderr
    assert UNSTAGED in committed.stderr
    assert BEHIND not in committed.stderr


def test_memory_and_its_assembled_files_committed_together_say_nothing(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    _second_entry_assembled(gm, repo)
    repo.git("add", "-A")
    committed = commit(repo)
    assert committed.returncode == 0, committed.stderr
    assert "warning" not in committed.stderr


def test_the_hook_knows_every_file_assemble_writes() -> None:
    assert set(AGENT_FILES) == set(TARGET_FILES.values())
