"""The pre-commit fast path: same lines and exit status as the full command, fewer imports."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

from git_memory.formats.entry import Entry, serialize_entry
from tests.conftest import PROJECT_ROOT, run_cli
from tests.repos import Repo

SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


# What the hook never loads; with a session index in the state home it reads the index, so
# `dataclasses` and `sqlite3` load then (docs/performance.md).
NEVER_LOADED = ("pydantic", "click", "mcp", "pygit2")
NOT_LOADED_WITHOUT_INDEX = (*NEVER_LOADED, "dataclasses", "pathlib", "sqlite3")


def _fast(
    repo: Repo, unloaded: tuple[str, ...] = NOT_LOADED_WITHOUT_INDEX
) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys; sys.argv = ['git-memory', 'lint', '--staged']\n"
        "from git_memory.cli.entry import main\n"
        "try:\n    sys.exit(main())\nexcept SystemExit as exit:\n"
        f"    loaded = sorted(m for m in sys.modules if m.split('.')[0] in {unloaded!r})\n"
        "    print('LOADED', loaded, file=sys.stderr)\n    raise\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
        env={**__import__("os").environ, "PYTHONPATH": str(PROJECT_ROOT)},
    )


def test_fast_path_matches_the_command_and_loads_none_of_the_heavy_modules(
    gm: Any, repo: Repo
) -> None:
    assert run_cli(["init"], cwd=repo.root).exit_code == 0
    repo.write(
        ".memory/entries/deploy-notes.md",
        serialize_entry(Entry(id="deploy-notes", body=f"token {SECRET}\n")),
    )
    repo.git("add", "-A")
    fast = _fast(repo)
    full = run_cli(["lint", "--staged", "--format", "text"], cwd=repo.root)
    assert fast.returncode == full.exit_code == 1
    assert fast.stdout == full.stdout
    assert " BLOCK GM_LINT_" in fast.stdout
    assert "LOADED []" in fast.stderr


def test_fast_path_passes_a_clean_commit(gm: Any, repo: Repo) -> None:
    assert run_cli(["init"], cwd=repo.root).exit_code == 0
    repo.write(
        ".memory/entries/deploy-notes.md",
        serialize_entry(Entry(id="deploy-notes", body="Deploy with make.\n")),
    )
    assert run_cli(["reindex"], cwd=repo.root).exit_code == 0
    repo.git("add", "-A")
    fast = _fast(repo)
    assert fast.returncode == 0, fast.stdout + fast.stderr
    assert fast.stdout == ""


def test_fast_path_outside_a_repository(tmp_path: Any) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "git_memory", "lint", "--staged"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={**__import__("os").environ, "PYTHONPATH": str(PROJECT_ROOT)},
    )
    assert result.returncode == 1
    assert "[GM_NOT_A_WORKTREE]" in result.stderr


def _git_stop(repo: Repo, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "git_memory", "lint", "--staged", *args],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
    )


def test_fast_path_reads_the_configured_root_and_the_temporary_index(gm: Any, repo: Repo) -> None:
    repo.git("config", "memory.root", "team/memory")
    assert run_cli(["init"], cwd=repo.root).exit_code == 0
    repo.write(
        "team/memory/entries/deploy-notes.md",
        serialize_entry(Entry(id="deploy-notes", body="Deploy with make.\n")),
    )
    assert run_cli(["reindex"], cwd=repo.root).exit_code == 0
    repo.git("add", "-A")
    assert _fast(repo).returncode == 0
    # A temporary index (what `git commit -a` hands the hook) is the one that is read.
    temporary = repo.root / ".git" / "next-index"
    (repo.root / ".git" / "index").replace(temporary)
    repo.git("read-tree", "--empty")
    leak = serialize_entry(Entry(id="deploy-notes", body=f"token {SECRET}\n"))
    repo.write("team/memory/entries/deploy-notes.md", leak)
    env = {**os.environ, "GIT_INDEX_FILE": str(temporary)}
    subprocess.run(["git", "add", "-A"], cwd=repo.root, env=env, check=True)
    result = subprocess.run(
        [sys.executable, "-m", "git_memory", "lint", "--staged"],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
        env={
            **os.environ,
            "PYTHONPATH": str(PROJECT_ROOT),
            "GIT_MEMORY_INDEX_FILE": str(temporary),
        },
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "team/memory/entries/deploy-notes.md:" in result.stdout
    assert _git_stop(repo).returncode == 0  # the repository's own index holds nothing


def test_fast_path_reports_a_staged_blob_git_cannot_read(gm: Any, repo: Repo) -> None:
    assert run_cli(["init"], cwd=repo.root).exit_code == 0
    repo.write(
        ".memory/entries/deploy-notes.md",
        serialize_entry(Entry(id="deploy-notes", body="Deploy with make.\n")),
    )
    repo.git("add", "-A")
    oid = repo.git("rev-parse", ":.memory/entries/deploy-notes.md").strip()
    (repo.root / ".git" / "objects" / oid[:2] / oid[2:]).unlink()
    result = _git_stop(repo)
    assert result.returncode == 1
    assert "[GM_GIT_FAILED]" in result.stderr


def test_fast_path_inside_the_git_dir_and_in_a_bare_repository(repo: Repo, tmp_path: Any) -> None:
    inside = subprocess.run(
        [sys.executable, "-m", "git_memory", "lint", "--staged"],
        cwd=repo.root / ".git",
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
    )
    assert "[GM_INSIDE_GIT_DIR]" in inside.stderr
    subprocess.run(["git", "init", "-q", "--bare", str(tmp_path / "bare")], check=True)
    bare = subprocess.run(
        [sys.executable, "-m", "git_memory", "lint", "--staged"],
        cwd=tmp_path / "bare",
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
    )
    assert "[GM_BARE_REPOSITORY]" in bare.stderr


def test_fast_path_finds_the_legacy_root_and_refuses_a_bad_configured_one(repo: Repo) -> None:
    leak = serialize_entry(Entry(id="deploy-notes", body=f"token {SECRET}\n"))
    repo.write(".threadshare/memory/entries/deploy-notes.md", leak)
    repo.git("add", "-A")
    result = _git_stop(repo)
    assert result.returncode == 1
    assert ".threadshare/memory/entries/deploy-notes.md:" in result.stdout
    repo.git("config", "memory.root", "../outside")
    assert "[GM_MEMORY_ROOT_INVALID]" in _git_stop(repo).stderr
