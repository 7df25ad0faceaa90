"""`git memory --help` is rewritten by git into `git help memory`: the installed man page."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.repos import Repo


def test_git_help_memory_shows_the_installed_page(repo: Repo, bin_dir: Path) -> None:
    # git maps `help memory` to the page git-memory only when `git-memory` is on PATH (else it
    # looks for a guide named gitmemory): bin_dir puts it there, as an installed script is.
    installed = Path(sys.prefix) / "share" / "man" / "man1" / "git-memory.1"
    assert installed.is_file(), "install the package (pip install .) to ship the man page"
    if shutil.which("man") is None:
        pytest.fail("man(1) is needed for `git help memory`")
    env = dict(
        os.environ,
        MANPATH=f"{installed.parent.parent}:",
        MANPAGER="cat",
        PAGER="cat",
        MANWIDTH="80",
    )
    result = subprocess.run(
        ["git", "help", "memory"],
        cwd=repo.root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "git-memory" in result.stdout
    assert "COMMANDS" in result.stdout
