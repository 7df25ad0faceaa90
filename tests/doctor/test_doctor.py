"""`git memory doctor` explains a half-configured setup and passes a configured one."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pytest_git import GitRepo

from tests.conftest import run_cli
from tests.extract.conftest import build_sample_repo


def _checks(result: Any) -> dict[str, dict[str, Any]]:
    return {check["name"]: check for check in result.json()["checks"]}


def test_half_configured_worktree_needs_action(git_repo: GitRepo) -> None:
    result = run_cli(["doctor", "--format", "json"], cwd=git_repo.workspace)
    assert result.exit_code == 1
    checks = _checks(result)
    assert result.json()["healthy"] is False
    assert checks["memory root"]["status"] == "fail"
    assert checks["memory root"]["hint"] == "git memory init"
    assert checks["hooks"]["status"] == "fail"
    # No transcripts at all: there is nothing to sync, so doctor does not ask for a sync.
    assert checks["sessions"]["status"] == "warn"
    assert checks["sessions"]["hint"] is None
    assert "looked for claude-code in " in checks["transcripts"]["detail"]
    assert checks["version"]["status"] == "ok"
    text = run_cli(["doctor"], cwd=git_repo.workspace)
    assert "[FAIL] memory root" in text.stdout
    assert "hint: git memory init" in text.stdout


def test_configured_worktree_is_healthy(
    tmp_path: Path, hermetic_env: dict[str, Path], bin_dir: Path
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    assert run_cli(["init"], cwd=sample.root).exit_code == 0
    installed = run_cli(["hooks", "install"], cwd=sample.root)
    assert installed.exit_code == 0, installed.stderr
    result = run_cli(["doctor", "--format", "json"], cwd=sample.root)
    checks = _checks(result)
    assert {name: c["status"] for name, c in checks.items() if c["status"] == "fail"} == {}
    assert result.exit_code == 0
    assert checks["sessions"]["detail"] == "2 indexed, 2 of this worktree"
    assert "claude-code: 1 transcript(s)" in checks["transcripts"]["detail"]


def test_loose_state_home_permissions_are_reported(
    git_repo: GitRepo, hermetic_env: dict[str, Path]
) -> None:
    assert run_cli(["status"], cwd=git_repo.workspace).exit_code == 0
    secret = hermetic_env["state"] / "secret.json"
    secret.chmod(0o644)
    checks = _checks(run_cli(["doctor", "--format", "json"], cwd=git_repo.workspace))
    assert checks["state home"]["status"] == "fail"
    assert "secret.json" in checks["state home"]["detail"]


def test_outside_a_repository_still_reports(tmp_path: Path) -> None:
    result = run_cli(["doctor", "--format", "json"], cwd=tmp_path)
    checks = _checks(result)
    assert checks["worktree"]["status"] == "fail"
    assert "memory root" not in checks
    assert result.exit_code == 1, "outside a repository the setup is not healthy"


def test_runner_sandbox_line_says_what_isolation_runners_get(
    git_repo: GitRepo, monkeypatch: Any
) -> None:
    checks = _checks(run_cli(["doctor", "--format", "json"], cwd=git_repo.workspace))
    assert checks["runner sandbox"]["status"] == "ok"
    detail = checks["runner sandbox"]["detail"]
    assert "namespaces" in detail
    # The layers as the isolation probe met them inside, and what it contained.
    for layer in ("allow-list root", "identity", "clean environment", "no terminal", "user ns"):
        assert f"{layer} held" in detail
    for layer in ("caps dropped", "no-new-privs", "seccomp", "attempt watch"):
        assert f"{layer} held" in detail
    # Run as root (CI), the runner is an id of its own; otherwise it is the caller.
    assert ("no account of this host" if os.geteuid() == 0 else "the caller's own") in detail
    assert "unmount the sandbox's mounts: refused" in detail
    assert "connect to a host unix socket: refused" in detail
    assert "attempts seen, by the layer that stopped them: allow-list root " in detail
    monkeypatch.setenv("GIT_MEMORY_RUNNER_SANDBOX", "off")
    plain = _checks(run_cli(["doctor", "--format", "json"], cwd=git_repo.workspace))
    assert plain["runner sandbox"]["status"] == "warn"
    assert "environment only" in plain["runner sandbox"]["detail"]


def test_state_home_inside_the_worktree_is_a_doctor_failure(
    git_repo: GitRepo, monkeypatch: Any
) -> None:
    monkeypatch.setenv("GIT_MEMORY_HOME", str(git_repo.workspace / ".state"))
    result = run_cli(["doctor", "--format", "json"], cwd=git_repo.workspace)
    assert result.exit_code == 1
    checks = _checks(result)
    assert checks["state home"]["status"] == "fail"
    assert "inside a git worktree" in checks["state home"]["detail"]


def test_a_missing_man_page_is_reinstalled_with_the_interpreter_git_memory_runs_on(
    tmp_path: Path, monkeypatch: Any
) -> None:
    import sys

    from git_memory.doctor.checks import check_man_page

    monkeypatch.setattr(sys, "prefix", str(tmp_path))  # an install without the man page
    check = check_man_page()
    assert check.status == "fail"
    # Its own (virtual environment's) interpreter: a system `python3` may refuse to install.
    assert check.hint == f"reinstall the package from its clone: {sys.executable} -m pip install ."
