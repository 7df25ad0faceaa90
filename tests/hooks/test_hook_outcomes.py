"""What the installed shim does before and after Python, through real `git commit`s.

A commit staging no memory file is decided in shell (no interpreter starts); with memory files
staged, each way the lint can end is told apart: blocking findings, an internal error, an
interpreter that cannot import git_memory, an interpreter that is gone.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

from tests.hooks.conftest import SECRET, commit, entry_text, head, hooks_dir
from tests.repos import Repo


def install_with_python(gm: Any, repo: Repo, python: str) -> None:
    """Install the shim, then point it at `python` instead of this interpreter."""
    result = gm(["hooks", "install"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    shim = hooks_dir(repo) / "pre-commit"
    text = shim.read_text()
    assert sys.executable in text
    shim.write_text(text.replace(sys.executable, python))


def recording_python(tmp_path: Path) -> tuple[Path, Path]:
    """An interpreter that notes each start in a file, then runs this Python."""
    started = tmp_path / "python-started"
    script = tmp_path / "recording-python"
    script.write_text(f'#!/bin/sh\necho started >> {started}\nexec {sys.executable} "$@"\n')
    script.chmod(0o755)
    return script, started


def test_commit_without_memory_files_starts_no_python(gm: Any, repo: Repo, tmp_path: Path) -> None:
    python, started = recording_python(tmp_path)
    install_with_python(gm, repo, str(python))
    repo.write("src/app.py", "print('hi')\n")
    repo.git("add", "src/app.py")
    plain = commit(repo, env={"PATH": "/usr/bin:/bin"})
    assert plain.returncode == 0, plain.stderr
    assert not started.exists()
    # A configured root (dotted, nested) is decided in shell too.
    repo.git("config", "memory.root", ".team/memory")
    repo.write("src/app.py", "print('hello')\n")
    repo.git("add", "src/app.py")
    assert commit(repo, env={"PATH": "/usr/bin:/bin"}).returncode == 0
    assert not started.exists()
    repo.git("config", "--unset", "memory.root")

    repo.write(".memory/entries/leak.md", entry_text("leak", f"token {SECRET}\n"))
    repo.git("add", ".memory/entries/leak.md")
    before = head(repo)
    stopped = commit(repo, env={"PATH": "/usr/bin:/bin"})
    assert stopped.returncode != 0
    assert "GM_LINT_GITHUB_TOKEN" in stopped.stderr
    assert "blocking findings" in stopped.stderr
    assert head(repo) == before
    assert started.read_text() == "started\n"


def test_configured_and_earlier_roots_are_linted(gm: Any, repo: Repo, tmp_path: Path) -> None:
    python, started = recording_python(tmp_path)
    install_with_python(gm, repo, str(python))
    repo.git("config", "memory.root", "team/notes")
    # The configured root has no index.json yet: its path alone sends the commit to the lint.
    repo.write("team/notes/entries/leak.md", entry_text("leak", f"token {SECRET}\n"))
    repo.git("add", "team/notes/entries/leak.md")
    first = commit(repo, env={"PATH": "/usr/bin:/bin"})
    assert first.returncode != 0
    assert "GM_LINT_GITHUB_TOKEN" in first.stderr
    repo.git("rm", "-q", "--cached", "team/notes/entries/leak.md")

    # A root an earlier memory.root named is found by its index.json, as the lint finds it.
    gm(["init"], cwd=repo.root)
    shutil.copytree(repo.root / "team" / "notes", repo.root / "old" / "mem", dirs_exist_ok=True)
    (repo.root / "old" / "mem" / "entries" / "leak.md").unlink()
    repo.git("add", "old/mem/index.json")
    assert commit(repo, "--no-verify").returncode == 0
    repo.write("old/mem/entries/leak.md", entry_text("leak", f"token {SECRET}\n"))
    repo.git("add", "old/mem/entries/leak.md")
    second = commit(repo, env={"PATH": "/usr/bin:/bin"})
    assert second.returncode != 0
    assert "GM_LINT_GITHUB_TOKEN" in second.stderr
    assert len(started.read_text().splitlines()) == 2


def test_internal_error_is_not_called_a_finding(gm: Any, repo: Repo) -> None:
    install_with_python(gm, repo, sys.executable)
    repo.write(".memory/entries/note.md", entry_text("note", "clean\n"))
    repo.git("add", ".memory/entries/note.md")
    result = commit(repo, env={"GIT_MEMORY_FAILPOINT": "lint.staged.start:raise"})
    assert result.returncode != 0
    assert "GM_INTERNAL" in result.stderr
    assert "see log at" in result.stderr
    assert "git memory hit an internal error" in result.stderr
    assert "--no-verify only if" in result.stderr
    assert "blocking findings" not in result.stderr


def test_interpreter_without_git_memory_names_itself(gm: Any, repo: Repo, tmp_path: Path) -> None:
    # As after the package moved: the interpreter runs, but git_memory is not importable.
    python = tmp_path / "python-without-git-memory"
    python.write_text(f'#!/bin/sh\nexec env -u PYTHONPATH {sys.executable} -S "$@"\n')
    python.chmod(0o755)
    install_with_python(gm, repo, str(python))
    repo.write(".memory/entries/note.md", entry_text("note", "clean\n"))
    repo.git("add", ".memory/entries/note.md")
    result = commit(repo, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode != 0
    assert "No module named 'git_memory'" in result.stderr
    assert f"tried {python}" in result.stderr
    assert "git memory hooks install" in result.stderr
    assert "blocking findings" not in result.stderr


def test_gone_interpreter_falls_back_to_the_one_on_path(gm: Any, repo: Repo, bin_dir: Path) -> None:
    install_with_python(gm, repo, "/nonexistent/python")
    repo.write(".memory/entries/leak.md", entry_text("leak", f"token {SECRET}\n"))
    repo.git("add", ".memory/entries/leak.md")
    result = commit(repo, env={"PATH": f"{bin_dir}:/usr/bin:/bin"})
    assert result.returncode != 0
    assert "/nonexistent/python (the interpreter that installed this hook) is gone" in (
        result.stderr
    )
    assert "GM_LINT_GITHUB_TOKEN" in result.stderr
    assert "blocking findings" in result.stderr
