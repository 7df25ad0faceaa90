"""`git memory reverify-runner`: forces the probe; exit 1 names the failing checks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.repos import Repo
from tests.runners.conftest import spawn_count

FakeRunner = Callable[[str], Path]


def test_reverify_passes_and_records(repo: Repo, fake_runner: FakeRunner) -> None:
    script = fake_runner("prompt-echo")
    args = ["reverify-runner", "--runner", "command", "--runner-command", str(script)]
    first = run_cli([*args, "--format", "json"], cwd=repo.root)
    assert first.exit_code == 0, first.stderr
    assert first.json()["passed"] is True
    again = run_cli(args, cwd=repo.root)
    assert again.exit_code == 0
    assert "conformance passed" in again.stdout
    assert spawn_count(script) == 4  # forced: probed twice (version + probe each)


def test_reverify_failure_exits_1_with_codes(repo: Repo, fake_runner: FakeRunner) -> None:
    script = fake_runner("file-reading")
    result = run_cli(
        ["reverify-runner", "--runner", "command", "--runner-command", str(script)],
        cwd=repo.root,
    )
    assert result.exit_code == 1
    for code in ("CANARY", "SIDE_EFFECT"):
        assert f"GM_RUNNER_CONFORMANCE_{code}" in result.stdout
    # Its write outside the workspace was contained, and still refused: it tried, and the
    # output names the attempt with the layer that stopped it.
    assert "GM_RUNNER_CONFORMANCE_SANDBOX_ESCAPE" not in result.stdout
    tried = [line for line in result.stdout.splitlines() if "GM_RUNNER_NONCONFORMANT" in line]
    assert len(tried) == 1, result.stdout
    assert "write " in tried[0]
    assert "/decoy/escape.txt: stopped by allow-list root" in tried[0]
    assert "sandbox layers: allow-list root held, identity held" in result.stdout
    assert "contained: connect to a host unix socket: refused" in result.stdout


def test_reverify_claude_profile_uses_its_argv(
    repo: Repo, fake_runner: FakeRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = fake_runner("conformant")
    monkeypatch.setenv("GIT_MEMORY_CLAUDE_BIN", str(script))
    missing = run_cli(["reverify-runner", "--runner", "claude", "--format", "json"], cwd=repo.root)
    assert missing.json()["error"]["code"] == "GM_RUNNER_CREDENTIAL_MISSING"
    assert not script.with_suffix(".spawned").exists(), "nothing starts without a credential"
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-a-real-key")
    result = run_cli(["reverify-runner", "--runner", "claude", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    lines = script.with_suffix(".spawned").read_text().splitlines()
    # the production argv, joined by spaces: `--tools ""` shows as two spaces
    production = "--tools  --bare --safe-mode --no-session-persistence --strict-mcp-config -p"
    assert lines == ["--version", production]


def test_reverify_builtin_and_missing_runner(repo: Repo) -> None:
    builtin = run_cli(["reverify-runner", "--runner", "builtin"], cwd=repo.root)
    assert builtin.exit_code == 1
    assert "GM_RUNNER_NOT_PROBED" in builtin.stderr
    missing = run_cli(["reverify-runner"], cwd=repo.root)
    assert missing.exit_code == 2
