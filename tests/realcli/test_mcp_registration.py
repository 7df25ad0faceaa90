"""The command doctor and the guides give to register the server, run with the real Claude
Code CLI, registers it: doctor then finds it (issue 45, item 12)."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest
from pytest_git import GitRepo

from tests.conftest import run_cli


@pytest.mark.realcli("claude")
def test_the_doctors_hint_run_as_given_registers_the_server(
    git_repo: GitRepo, hermetic_env: dict[str, Path]
) -> None:
    def claude_check() -> dict[str, str]:
        result = run_cli(["doctor", "--format", "json"], cwd=git_repo.workspace)
        (check,) = [c for c in result.json()["checks"] if c["name"] == "mcp claude"]
        return dict(check)

    before = claude_check()
    assert before["status"] == "warn"
    command = before["hint"].split(" (", 1)[0]
    env = {
        **os.environ,
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
    }
    ran = subprocess.run(
        shlex.split(command),
        cwd=git_repo.workspace,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr + ran.stdout
    after = claude_check()
    assert after["status"] == "ok", after
    assert "user scope" in after["detail"]
