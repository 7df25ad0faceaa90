"""The installed pre-commit hook stops a real `git commit` carrying a secret.

git sends a pre-commit hook's stdout to stderr, so findings are looked for there.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

from tests.hooks.conftest import SECRET, commit, entry_text, head, hooks_dir
from tests.repos import Repo


def install(gm: Any, repo: Repo) -> None:
    result = gm(["hooks", "install"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr


def add_foreign_hook(repo: Repo) -> Path:
    """A pre-existing hook that records that it ran."""
    marker = repo.root.parent / "foreign-ran"
    hook = hooks_dir(repo) / "pre-commit"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text(f"#!/bin/sh\necho ran >> {marker}\nexit 0\n")
    hook.chmod(0o755)
    return marker


def test_staged_secret_is_stopped_clean_passes_foreign_runs(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    marker = add_foreign_hook(repo)
    install(gm, repo)
    assert (hooks_dir(repo) / "pre-commit.legacy").is_file()
    repo.write(".memory/entries/leak.md", entry_text("leak", f"token {SECRET}\n"))
    repo.git("add", ".memory/entries/leak.md")
    before = head(repo)
    stopped = commit(repo)
    assert stopped.returncode != 0
    assert "GM_LINT_GITHUB_TOKEN" in stopped.stderr
    assert SECRET not in stopped.stdout + stopped.stderr
    assert "--no-verify" in stopped.stderr
    assert head(repo) == before
    assert marker.read_text() == "ran\n"

    repo.write(".memory/entries/leak.md", entry_text("leak", "a clean note\n"))
    repo.git("add", ".memory/entries/leak.md")
    passed = commit(repo)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert head(repo) != before
    assert marker.read_text() == "ran\nran\n"


def test_failing_foreign_hook_stops_the_commit_first(gm: Any, repo: Repo, bin_dir: Path) -> None:
    hook = hooks_dir(repo) / "pre-commit"
    hook.write_text("#!/bin/sh\necho legacy-says-no >&2\nexit 7\n")
    hook.chmod(0o755)
    install(gm, repo)
    repo.write("notes.txt", "x\n")
    repo.git("add", "notes.txt")
    result = commit(repo)
    assert result.returncode != 0
    assert "legacy-says-no" in result.stderr


def test_commit_all_lints_the_temporary_index(gm: Any, repo: Repo, bin_dir: Path) -> None:
    install(gm, repo)
    repo.write(".memory/entries/note.md", entry_text("note", "clean\n"))
    repo.git("add", ".memory/entries/note.md")
    assert commit(repo).returncode == 0
    # The secret is only in the worktree: `commit -a` stages it into a temporary index.
    repo.write(".memory/entries/note.md", entry_text("note", f"now {SECRET}\n"))
    before = head(repo)
    result = commit(repo, "-a")
    assert result.returncode != 0
    assert "GM_LINT_GITHUB_TOKEN" in result.stderr
    assert head(repo) == before


def test_commit_paths_lints_only_what_it_commits(gm: Any, repo: Repo, bin_dir: Path) -> None:
    install(gm, repo)
    repo.write(".memory/entries/note.md", entry_text("note", "clean\n"))
    repo.git("add", ".memory/entries/note.md")
    assert commit(repo).returncode == 0
    repo.write(".memory/entries/note.md", entry_text("note", f"now {SECRET}\n"))
    repo.write("other.txt", "fine\n")
    repo.git("add", "other.txt")
    before = head(repo)
    stopped = commit(repo, "--", ".memory/entries/note.md")
    assert stopped.returncode != 0
    assert head(repo) == before
    # Staged secret, but `git commit other.txt` records only other.txt: the commit passes.
    repo.git("add", ".memory/entries/note.md")
    passed = commit(repo, "--", "other.txt")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "other.txt" in repo.git("show", "--name-only", "--format=", "HEAD")


def test_shim_falls_back_to_the_installing_python(gm: Any, repo: Repo) -> None:
    install(gm, repo)
    shim = (hooks_dir(repo) / "pre-commit").read_text()
    assert sys.executable in shim
    repo.write(".memory/entries/leak.md", entry_text("leak", f"token {SECRET}\n"))
    repo.git("add", ".memory/entries/leak.md")
    result = commit(repo, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode != 0
    assert "GM_LINT_GITHUB_TOKEN" in result.stderr


def test_missing_tool_fails_closed_with_install_hint(gm: Any, repo: Repo) -> None:
    install(gm, repo)
    shim = hooks_dir(repo) / "pre-commit"
    shim.write_text(shim.read_text().replace(sys.executable, "/nonexistent/python"))
    repo.write(".memory/entries/note.md", entry_text("note", "clean\n"))
    repo.git("add", ".memory/entries/note.md")
    result = commit(repo, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode != 0
    assert "pip install git-team-memory" in result.stderr
    assert "/nonexistent/python" in result.stderr
    assert "git memory hooks install" in result.stderr
    assert "blocking findings" not in result.stderr
    assert "--no-verify" in result.stderr


def test_legacy_hook_keeps_gits_environment(
    gm: Any, repo: Repo, bin_dir: Path, tmp_path: Path
) -> None:
    import os
    import subprocess

    seen = tmp_path / "legacy-env"
    hook = hooks_dir(repo) / "pre-commit"
    hook.write_text(f'#!/bin/sh\necho "$GIT_WORK_TREE" > {seen}\n')
    hook.chmod(0o755)
    install(gm, repo)
    repo.write(".memory/entries/leak.md", entry_text("leak", f"token {SECRET}\n"))
    repo.git("add", ".memory/entries/leak.md")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_GLOBAL=os.environ["GIT_CONFIG_GLOBAL"],
        GIT_MEMORY_HOME=os.environ["GIT_MEMORY_HOME"],
        # Misleading values a hook could inherit; the lint must still find this repository.
        GIT_WORK_TREE=str(tmp_path / "elsewhere"),
        GIT_DIR=str(tmp_path / "elsewhere" / ".git"),
    )
    result = subprocess.run(
        [str(hooks_dir(repo) / "pre-commit")],
        cwd=repo.root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "GM_LINT_GITHUB_TOKEN" in result.stdout
    assert seen.read_text().strip() == str(tmp_path / "elsewhere")


def test_shim_passes_only_config_and_index_to_the_tool(gm: Any, repo: Repo, tmp_path: Path) -> None:
    import os
    import subprocess

    install(gm, repo)
    shim = hooks_dir(repo) / "pre-commit"
    # As if the interpreter that installed the hook were gone: the shim falls back to the
    # `git-memory` on PATH. A memory file is staged in the index git names, so the lint runs.
    shim.write_text(shim.read_text().replace(sys.executable, "/nonexistent/python"))
    repo.write(".memory/entries/note.md", entry_text("note", "clean\n"))
    repo.git("add", ".memory/entries/note.md")
    shutil.copyfile(repo.root / ".git" / "index", repo.root / ".git" / "index.lock")
    fake_bin = tmp_path / "fake-bin"
    fake_bin.mkdir()
    dump = tmp_path / "tool-env"
    tool = fake_bin / "git-memory"
    tool.write_text(f'#!/bin/sh\necho "$@" > {dump}\nenv | grep "^GIT_" | sort >> {dump}\n')
    tool.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        PATH=f"{fake_bin}:/usr/bin:/bin",
        GIT_CONFIG_GLOBAL=os.environ["GIT_CONFIG_GLOBAL"],
        GIT_DIR=".git",
        GIT_PREFIX="sub/",
        GIT_INDEX_FILE=".git/index.lock",
        GIT_EDITOR=":",
    )
    result = subprocess.run(
        [str(hooks_dir(repo) / "pre-commit")],
        cwd=repo.root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = dump.read_text().splitlines()
    assert lines[0] == "lint --staged"
    names = {line.split("=", 1)[0] for line in lines[1:]}
    assert names == {"GIT_CONFIG_GLOBAL", "GIT_MEMORY_INDEX_FILE"}
    assert f"GIT_MEMORY_INDEX_FILE={repo.root}/.git/index.lock" in lines
