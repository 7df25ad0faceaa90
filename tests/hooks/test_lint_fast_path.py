"""The pre-commit fast path: same lines and exit status as the full command, fewer imports."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from git_memory.formats.entry import Entry, serialize_entry
from git_memory.testing.repos import Repo
from tests.conftest import PROJECT_ROOT, run_cli

SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def _fast(repo: Repo) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys; sys.argv = ['git-memory', 'lint', '--staged']\n"
        "from git_memory.cli.entry import main\n"
        "try:\n    main()\nexcept SystemExit as exit:\n"
        "    loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pydantic', 'click', 'mcp'))\n"
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


def test_fast_path_matches_the_command_and_loads_no_pydantic(gm: Any, repo: Repo) -> None:
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
