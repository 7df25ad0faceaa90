"""The CLI skeleton: help, version, exit codes, JSON errors, crash logs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import PROJECT_ROOT
from tests.repos import Repo, git


def test_short_help_lists_commands_without_importing_them(gm: Any, repo: Repo) -> None:
    result = gm(["-h"], cwd=repo.root)
    assert result.exit_code == 0
    assert "status" in result.stdout
    assert "init" in result.stdout
    code = (
        "import sys; from git_memory.cli.main import main\n"
        "sys.argv=['git-memory','-h']\n"
        "try:\n main()\nexcept SystemExit: pass\n"
        "bad=[m for m in sys.modules if m.startswith(('pydantic','mcp','git_memory.ops.'))"
        " and m not in ('git_memory.ops.registry', 'git_memory.ops.base')]\nprint(bad)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT_ROOT, check=True
    ).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_version(gm: Any) -> None:
    result = gm(["--version"])
    assert result.exit_code == 0
    assert result.stdout.startswith("git memory version ")


def test_help_command(gm: Any) -> None:
    result = gm(["help", "status"])
    assert result.exit_code == 0
    assert "Usage: git memory status" in result.stdout
    assert gm(["help", "nonexistent"]).exit_code == 2


def test_usage_error_exits_2(gm: Any, repo: Repo) -> None:
    result = gm(["status", "--format", "yaml"], cwd=repo.root)
    assert result.exit_code == 2


def test_user_error_exits_1_with_code_and_hint(gm: Any, tmp_path: Path) -> None:
    result = gm(["status"], cwd=tmp_path)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == "error: not inside a git worktree [GM_NOT_A_WORKTREE]"
    assert result.stderr.splitlines()[1].startswith("hint: ")
    assert "Traceback" not in result.stderr


def test_json_error_document(gm: Any, tmp_path: Path) -> None:
    result = gm(["status", "--format", "json"], cwd=tmp_path)
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "GM_NOT_A_WORKTREE"


def test_bare_repository_refused_by_cli(gm: Any, tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    result = gm(["status"], cwd=bare)
    assert result.exit_code == 1
    assert "[GM_BARE_REPOSITORY]" in result.stderr


def test_unexpected_exception_exits_3_with_log(
    gm_proc: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    # A `:raise` failpoint stands for a bug: an exception that is not a GitMemoryError.
    result = gm_proc(["status"], cwd=repo.root, env={"GIT_MEMORY_FAILPOINT": "status.start:raise"})
    assert result.returncode == 3, result.stderr
    assert "[GM_INTERNAL]" in result.stderr
    assert "Traceback" not in result.stderr
    logs = list((hermetic_env["state"] / "logs").iterdir())
    assert len(logs) == 1
    assert "FailpointError" in logs[0].read_text()


def test_state_home_that_is_a_file(
    gm: Any, repo: Repo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    plain_file = tmp_path / "plain-file"
    plain_file.write_text("not a directory\n")
    monkeypatch.setenv("GIT_MEMORY_HOME", str(plain_file))
    result = gm(["status"], cwd=repo.root)
    assert result.exit_code == 1
    assert "[GM_STATE_HOME_INVALID]" in result.stderr


def test_crash_log_is_written_to_state_home(repo: Repo, hermetic_env: dict[str, Path]) -> None:
    from git_memory.paths import write_crash_log

    log = write_crash_log("Traceback: boom\n")
    assert log is not None
    assert log.parent == hermetic_env["state"] / "logs"
    assert log.read_text() == "Traceback: boom\n"
    assert log.stat().st_mode & 0o777 == 0o600


def test_python_dash_m_entry_point(gm_proc: Any, repo: Repo) -> None:
    result = gm_proc(["--version"], cwd=repo.root)
    assert result.returncode == 0
    assert "git memory version" in result.stdout


def test_git_dispatches_to_git_memory(bin_dir: Path, repo: Repo) -> None:
    result = subprocess.run(
        ["git", "memory", "status", "--format", "json"],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert '"git-memory-status@v1"' in result.stdout


def test_interrupt_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    import click

    from git_memory.cli.errors import run_guarded

    @click.command()
    def boom() -> None:
        raise KeyboardInterrupt

    assert run_guarded(boom, []) == 130


def test_malformed_values_from_flags_are_request_errors(gm: Any, repo: Repo) -> None:
    result = gm(
        ["promote", "--plan", "plan-x", "--approve", "deadbeef", "--format", "json"], cwd=repo.root
    )
    assert result.exit_code == 2, "a malformed digest is a usage error"
    assert result.json()["error"]["code"] == "GM_REQUEST_INVALID"
    assert result.json()["error"]["problem"] == (
        "invalid request: approve: must be a digest: 64 lowercase hex characters,"
        " as the command printed it"
    )


def test_missing_repository_path_is_named_as_given(gm: Any, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    result = gm(["status", "--repository", str(missing)], cwd=tmp_path)
    assert result.exit_code == 1
    assert f"no such directory: '{missing}'" in result.stderr
