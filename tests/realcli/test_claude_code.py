"""The agent-native flow through the real Claude Code CLI (`claude -p`) and `git memory mcp`.

Claude Code is registered with the shipped snippet (`contrib/mcp/claude-mcp.json`, allowed by
the shipped permission rule) and pointed at a scripted model on 127.0.0.1, which reads the
tool results in the conversation and calls recall → stage drafts → stage adjudication →
review → prepare → promote.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from git_memory.mcp.handshake import SELECT_QUERY
from git_memory.mcp.surface import EVERYDAY_BUDGET
from tests.conftest import PROJECT_ROOT
from tests.extract.conftest import SampleRepo, build_sample_repo
from tests.realcli.conftest import cli_version
from tests.realcli.fake_model import AnthropicAgent, FakeModel, ScriptedAgent
from tests.realcli.flow_checks import check_flow, check_offered_tools

CONTRIB = PROJECT_ROOT / "contrib" / "mcp"
HERE = Path(__file__).resolve().parent
TIMEOUT = 90


@pytest.mark.realcli("claude")
def test_claude_code_runs_the_whole_flow(
    tmp_path: Path, hermetic_env: dict[str, Path], entry_bin: Path, claude_bin: str
) -> None:
    elicited = tmp_path / "elicited.jsonl"
    _agent, promoted = _claude_flow(claude_bin, tmp_path, hermetic_env, elicited)
    # `claude -p` declares elicitation and hands the form to the Elicitation hook: the
    # approval came from the form, which showed the plan and its diff.
    assert promoted["approvedVia"] == "elicitation"
    (event,) = [json.loads(line) for line in elicited.read_text().splitlines()]
    shown = json.dumps(event)
    assert promoted["planId"] in shown
    assert all(path in shown for path in promoted["files"])
    _check_server_lifecycle(hermetic_env["claude"])


@pytest.mark.realcli("claude")
def test_claude_print_mode_cancels_the_form_then_the_agents_digest_applies(
    tmp_path: Path, hermetic_env: dict[str, Path], entry_bin: Path, claude_bin: str
) -> None:
    # No Elicitation hook: `claude -p` has no one to show the form to and answers `cancel`,
    # which is no decision: the agent is told so and retries with the plan's digest.
    agent, promoted = _claude_flow(claude_bin, tmp_path, hermetic_env, None)
    refused = agent.agent.seen[-2][1]
    assert refused["code"] == "GM_APPROVAL_REQUIRED", refused
    assert refused["details"] == {"form": "cancelled"}, refused
    assert promoted["approvedVia"] == "agent"
    assert any("cancelled" in note for note in promoted["notes"]), promoted


@pytest.mark.realcli("claude")
def test_claude_code_with_deferred_tools_loads_them_with_one_select_query(
    tmp_path: Path, hermetic_env: dict[str, Path], entry_bin: Path, claude_bin: str
) -> None:
    # Tool search on (the default of today's Claude Code): the request lists the server's
    # tools by name only, and the model loads them with the query the instructions give. The
    # server is connected before the first request (no keyword search while it connects).
    settings = {"ENABLE_TOOL_SEARCH": "true", "MCP_CONNECTION_NONBLOCKING": "false"}
    agent, promoted = _claude_flow(claude_bin, tmp_path, hermetic_env, None, settings)
    assert agent.searches == [SELECT_QUERY]
    assert promoted["approvedVia"] == "agent"


def _claude_flow(
    claude_bin: str,
    tmp_path: Path,
    hermetic_env: dict[str, Path],
    elicited: Path | None,
    extra_env: dict[str, str] | None = None,
) -> tuple[AnthropicAgent, dict[str, Any]]:
    """The whole flow through `claude -p` in a sample repository (forms go to the recording
    Elicitation hook when `elicited` is given; `extra_env`: more environment for the client);
    returns the model's side and the promotion."""
    sample = build_sample_repo(tmp_path, hermetic_env)
    before = sample.repo.snapshot()
    if elicited is not None:
        _install_elicitation_hook(hermetic_env["claude"])
    agent = _run_claude(
        claude_bin,
        tmp_path,
        hermetic_env,
        sample.root,
        elicited=elicited,
        extra_env=extra_env or {},
    )
    promoted = check_flow(agent.agent, sample.root, hermetic_env["state"])
    assert sample.repo.snapshot() == before
    return agent, promoted


def run_on_sample(
    claude_bin: str, tmp_path: Path, hermetic_env: dict[str, Path], scripted: ScriptedAgent
) -> tuple[SampleRepo, Any]:
    """The sample repository, and `claude -p` run in it against `scripted`; with the
    repository's snapshot from before the run."""
    sample = build_sample_repo(tmp_path, hermetic_env)
    before = sample.repo.snapshot()
    _run_claude(
        claude_bin, tmp_path, hermetic_env, sample.root, elicited=None, extra_env={},
        scripted=scripted,
    )  # fmt: skip
    return sample, before


def _run_claude(
    claude_bin: str,
    tmp_path: Path,
    hermetic_env: dict[str, Path],
    root: Path,
    *,
    elicited: Path | None,
    extra_env: dict[str, str],
    scripted: ScriptedAgent | None = None,
) -> AnthropicAgent:
    """`claude -p` in `root` against the scripted model (the default flow unless `scripted`
    is given); returns the model's side."""
    settings = json.loads((CONTRIB / "claude-settings.json").read_text())
    (allowed,) = settings["permissions"]["allow"]
    agent = AnthropicAgent() if scripted is None else AnthropicAgent(scripted)
    with FakeModel(agent) as model:
        env = _client_env(model.url, hermetic_env) | extra_env
        if elicited is not None:
            env["GIT_MEMORY_TEST_ELICITED"] = str(elicited)
        completed = subprocess.run(
            [
                claude_bin,
                "-p",
                "Recall what we learned in the past sessions and save it as team memory.",
                "--mcp-config",
                str(CONTRIB / "claude-mcp.json"),
                "--strict-mcp-config",
                "--allowedTools",
                allowed,
                "--debug",
            ],
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    model.dump(tmp_path / "requests.jsonl")
    assert not model.errors, model.errors[0]
    assert completed.returncode == 0, completed.stderr[-3000:] + completed.stdout[-3000:]
    assert agent.turns
    assert not any("WaitForMcpServers" in names for names in agent.turns)
    if agent.searches:
        # Deferred tools: the requests up to the `select:` query's result listed them by name
        # only (or not yet, while the server connected); every one after it carried them whole.
        assert agent.searches[-1] == SELECT_QUERY, agent.searches
        assert len(agent.offered) == len(agent.turns) - len(agent.searches)
    else:
        # Every model request offered the tools, the first one too: the server was connected
        # before Claude Code asked the model.
        assert len(agent.offered) == len(agent.turns)
    check_offered_tools(agent.offered)
    # What the everyday tools cost each request, as Claude Code sent them.
    sent = [
        json.dumps(list(tools.values()), ensure_ascii=False, separators=(",", ":"))
        for tools in agent.offered
    ]
    size = max(len(text.encode("utf-8")) for text in sent)
    print(f"claude {cli_version(claude_bin)}: the git-memory tools took {size} bytes a request")
    assert size <= EVERYDAY_BUDGET, f"Claude Code sent {size} bytes of git-memory tools"
    return agent


def _install_elicitation_hook(config_dir: Path) -> None:
    hook = f"{sys.executable} {HERE / 'elicitation_hook.py'}"
    settings = {
        "hooks": {
            "Elicitation": [
                {"matcher": "git-memory", "hooks": [{"type": "command", "command": hook}]}
            ]
        }
    }
    (config_dir / "settings.json").write_text(json.dumps(settings))


def _client_env(url: str, hermetic_env: dict[str, Path]) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("ANTHROPIC_")}
    env.update(
        ANTHROPIC_BASE_URL=url,
        ANTHROPIC_API_KEY="dummy",
        CLAUDE_CONFIG_DIR=str(hermetic_env["claude"]),
        # Nothing but the scripted model on 127.0.0.1: no telemetry, updates or registry.
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_TELEMETRY="1",
        DISABLE_AUTOUPDATER="1",
        DISABLE_ERROR_REPORTING="1",
    )
    return env


def _check_server_lifecycle(config_dir: Path) -> None:
    """Claude Code's debug log: the server connected and stopped on the first signal."""
    logs = list((config_dir / "debug").glob("*.txt"))
    assert logs, "claude wrote no debug log"
    text = "\n".join(log.read_text(errors="replace") for log in logs)
    assert 'MCP server "git-memory": Successfully connected' in text
    assert "SIGINT failed" not in text
    assert "Traceback" not in text
