"""Issue 45 item 2: a home path in an entry edited by hand stops a real `git commit`, as a
secret does and with the same bypass message, whoever's home it is and however it is
written."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.hooks.conftest import commit, entry_text
from tests.hooks.stopped import commit_stopped
from tests.repos import Repo

HOMES = {
    "this-machine": "{home}/.config/acme/settings.toml",
    "linux": "/home/alice/.config/acme/settings.toml",
    "macos": "/Users/alice/Library/Application Support/acme",
    "windows": "C:\\Users\\alice\\AppData\\Local\\acme",
    "root": "/root/.config/acme",
    # Read as a person reads it: a Cyrillic `о`, a fullwidth solidus, a soft hyphen.
    "look-alike": "/h\u043eme/alice/.config/acme",
    "fullwidth-slash": "\uff0fhome\uff0falice\uff0f.config",
    "soft-hyphen": "/ho\u00adme/alice/.config/acme",
}


@pytest.mark.parametrize("name", sorted(HOMES))
def test_a_hand_edited_home_path_stops_the_commit(
    gm: Any, repo: Repo, bin_dir: Path, name: str
) -> None:
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    path = HOMES[name].format(home=os.path.expanduser("~"))
    repo.write(".memory/entries/settings.md", entry_text("settings", f"Settings live in {path}\n"))
    repo.git("add", "-A")
    stderr = commit_stopped(repo, "BLOCK GM_LINT_ABSOLUTE_PATH")
    assert ".memory/entries/settings.md:" in stderr
    assert "git-memory: commit stopped: staged memory files have blocking findings" in stderr
    assert "bypass knowingly with: git commit --no-verify" in stderr


def test_a_repository_relative_path_and_a_tilde_path_commit(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    body = "Settings live in `config/settings.toml`; each person's overrides in `~/.acme.toml`.\n"
    repo.write(".memory/entries/settings.md", entry_text("settings", body))
    repo.git("add", "-A")
    committed = commit(repo)
    assert committed.returncode == 0, committed.stderr
