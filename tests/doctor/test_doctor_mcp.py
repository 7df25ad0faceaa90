"""`git memory doctor` tells whether Claude Code and Codex have the MCP server registered."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pytest_git import GitRepo

from git_memory.doctor.mcp_clients import CLAUDE_REGISTER
from tests.conftest import PROJECT_ROOT, run_cli

CONTRIB = PROJECT_ROOT / "contrib" / "mcp"


def _mcp_checks(root: Path) -> dict[str, dict[str, Any]]:
    result = run_cli(["doctor", "--format", "json"], cwd=root)
    return {c["name"]: c for c in result.json()["checks"] if c["name"].startswith("mcp ")}


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_nothing_registered_says_how(git_repo: GitRepo, hermetic_env: dict[str, Path]) -> None:
    checks = _mcp_checks(git_repo.workspace)
    assert checks["mcp claude"]["status"] == "warn"
    assert "claude mcp add --scope user git-memory" in checks["mcp claude"]["hint"]
    assert checks["mcp codex"]["status"] == "warn"
    assert "codex-config.toml" in checks["mcp codex"]["hint"]
    # Each hint names a file that is there on this machine, not a path in the sources.
    shipped = checks["mcp codex"]["hint"].split("merge ", 1)[1].split(" into ", 1)[0]
    assert Path(shipped).is_file()
    readme = checks["mcp claude"]["hint"].rsplit(": ", 1)[1].rstrip(")")
    assert Path(readme).is_file()


def test_an_installed_wheel_layout_finds_the_shipped_contrib_files(tmp_path: Path) -> None:
    from git_memory.paths import packaged_file

    package = tmp_path / "site-packages" / "git_memory"
    (package / "_contrib" / "mcp").mkdir(parents=True)
    (package / "_contrib" / "mcp" / "codex-config.toml").write_text("# snippet\n")
    found = packaged_file("contrib", "mcp/codex-config.toml", package)
    assert found == package / "_contrib" / "mcp" / "codex-config.toml"
    assert packaged_file("contrib", "mcp/missing.toml", package) is None


def test_user_scope_and_codex_snippets_register(
    git_repo: GitRepo, hermetic_env: dict[str, Path]
) -> None:
    # What `claude mcp add --scope user` writes, and the shipped Codex snippet as is.
    server = json.loads((CONTRIB / "claude-mcp.json").read_text())["mcpServers"]
    (hermetic_env["claude"] / ".claude.json").write_text(json.dumps({"mcpServers": server}))
    (hermetic_env["codex"] / "config.toml").write_text((CONTRIB / "codex-config.toml").read_text())
    before = _tree(hermetic_env["claude"]) | _tree(hermetic_env["codex"])
    checks = _mcp_checks(git_repo.workspace)
    assert checks["mcp claude"]["status"] == "ok"
    assert "user scope" in checks["mcp claude"]["detail"]
    assert checks["mcp codex"]["status"] == "ok", checks["mcp codex"]
    # Read-only: neither client's configuration changed.
    assert _tree(hermetic_env["claude"]) | _tree(hermetic_env["codex"]) == before


def test_codex_entry_without_home_forwarding_warns(
    git_repo: GitRepo, hermetic_env: dict[str, Path]
) -> None:
    (hermetic_env["codex"] / "config.toml").write_text(
        '[mcp_servers.git-memory]\ncommand = "git"\nargs = ["memory", "mcp"]\n'
    )
    check = _mcp_checks(git_repo.workspace)["mcp codex"]
    assert check["status"] == "warn"
    assert "GIT_MEMORY_HOME" in check["detail"]
    assert 'env_vars = ["GIT_MEMORY_HOME"]' in check["hint"]


def test_codex_entry_that_cuts_tool_results_warns(
    git_repo: GitRepo, hermetic_env: dict[str, Path]
) -> None:
    snippet = (CONTRIB / "codex-config.toml").read_text()
    assert "tool_output_token_limit = 40000" in snippet
    (hermetic_env["codex"] / "config.toml").write_text(
        snippet.replace("tool_output_token_limit = 40000", "tool_output_token_limit = 2500")
    )
    check = _mcp_checks(git_repo.workspace)["mcp codex"]
    assert check["status"] == "warn"
    assert "cut" in check["detail"]
    assert "tool_output_token_limit = 40000" in check["hint"]


def test_broken_codex_config_is_reported_not_fatal(
    git_repo: GitRepo, hermetic_env: dict[str, Path]
) -> None:
    (hermetic_env["codex"] / "config.toml").write_text("[mcp_servers.git-memory\n")
    check = _mcp_checks(git_repo.workspace)["mcp codex"]
    assert check["status"] == "warn"
    assert "cannot read" in check["detail"]


def test_project_scope_approved_in_the_shipped_project_settings(
    git_repo: GitRepo, hermetic_env: dict[str, Path]
) -> None:
    (git_repo.workspace / ".mcp.json").write_text((CONTRIB / "claude-mcp.json").read_text())
    (git_repo.workspace / ".claude").mkdir()
    (git_repo.workspace / ".claude" / "settings.json").write_text(
        (CONTRIB / "claude-settings.json").read_text()
    )
    trusted = {"projects": {str(git_repo.workspace.resolve()): {"hasTrustDialogAccepted": True}}}
    (hermetic_env["claude"] / ".claude.json").write_text(json.dumps(trusted))
    check = _mcp_checks(git_repo.workspace)["mcp claude"]
    assert check["status"] == "ok", check
    assert "project scope" in check["detail"]


@pytest.mark.parametrize("approved", [False, True])
def test_project_scope_needs_trust_and_approval(
    approved: bool, git_repo: GitRepo, hermetic_env: dict[str, Path]
) -> None:
    (git_repo.workspace / ".mcp.json").write_text((CONTRIB / "claude-mcp.json").read_text())
    project = {"hasTrustDialogAccepted": True, "enabledMcpjsonServers": ["git-memory"]}
    config = {"projects": {str(git_repo.workspace.resolve()): project if approved else {}}}
    (hermetic_env["claude"] / ".claude.json").write_text(json.dumps(config))
    check = _mcp_checks(git_repo.workspace)["mcp claude"]
    if approved:
        assert check["status"] == "ok"
        assert "project scope" in check["detail"]
    else:
        assert check["status"] == "warn"
        assert "trusted" in check["detail"]


# Where a person reads how to register the server with Claude Code (issue 45, item 12).
REGISTRATION_TEXTS = ("README.md", "docs/guide-agent.md", "contrib/mcp/README.md")
CLAUDE_ADD = re.compile(r"claude mcp add[^`\n#]*")


def test_doctor_and_every_guide_give_one_registration_command(
    git_repo: GitRepo, hermetic_env: dict[str, Path]
) -> None:
    hint = _mcp_checks(git_repo.workspace)["mcp claude"]["hint"]
    command = hint.split(" (", 1)[0]
    assert command == CLAUDE_REGISTER
    own_help = run_cli(["mcp", "-h"], cwd=git_repo.workspace).stdout
    texts = {name: (PROJECT_ROOT / name).read_text(encoding="utf-8") for name in REGISTRATION_TEXTS}
    for name, text in {**texts, "git memory mcp -h": own_help}.items():
        assert command in text, f"{name} does not give the doctor's command"
        others = {
            found.strip()
            for found in CLAUDE_ADD.findall(text)
            if found.strip() != command and "--repository" not in found
        }
        assert others == set(), f"{name} gives another registration command: {others}"
    # Pinning one repository is the one other form, and it is for one project only.
    (pin,) = {
        f.strip() for f in CLAUDE_ADD.findall(texts["contrib/mcp/README.md"]) if "--repo" in f
    }
    assert pin.startswith("claude mcp add --scope local git-memory -- git memory mcp --repository")
