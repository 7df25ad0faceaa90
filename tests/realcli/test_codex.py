"""The agent-native flow through the real Codex CLI and `git memory mcp`.

Codex is configured with the shipped snippet (`contrib/mcp/codex-config.toml`: it forwards
`GIT_MEMORY_HOME` and the transcript locations with `env_vars`) plus a custom model provider
on 127.0.0.1 speaking the Responses API; the scripted model calls recall → stage drafts →
stage adjudication → review → prepare → promote.

Two front ends: `codex exec` declares MCP elicitation but declines every form (it has no one
to show it to, and answers `decline`, not `cancel`), so there the plan is void: the promotion
is refused, the agent's digest afterwards too, and nothing is written; through
`codex app-server` (what the IDE extension and the desktop app drive) the form reaches the
client, the human approves it, and the entries are written.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import PROJECT_ROOT
from tests.extract.conftest import build_sample_repo
from tests.promote.helpers import authorizations
from tests.realcli.codex_app_server import AppServer
from tests.realcli.fake_model import FakeModel, ResponsesAgent, ScriptedAgent
from tests.realcli.flow_checks import FLOW, check_flow, check_offered_tools

CONTRIB = PROJECT_ROOT / "contrib" / "mcp"
TIMEOUT = 90
PROMPT = "Recall what we learned in the past sessions and save it as team memory."

# Top-level keys first: the shipped snippet starts with its own top-level key, then its
# [mcp_servers.git-memory] table.
# Nothing but the scripted model on 127.0.0.1: no update check, analytics or plugin sync.
PROVIDER = """\
model = "scripted-model"
model_provider = "scripted"
approval_policy = "never"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[analytics]
enabled = false

[features]
plugins = false
apps = false

[model_providers.scripted]
name = "scripted"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "SCRIPTED_MODEL_API_KEY"
request_max_retries = 0
stream_max_retries = 0

"""


def _configure(codex_home: Path, url: str) -> None:
    snippet = (CONTRIB / "codex-config.toml").read_text()
    top, table = snippet.split("[mcp_servers.git-memory]")
    config = top + PROVIDER.format(url=url) + "[mcp_servers.git-memory]" + table
    # The shipped snippet as it is: its per-tool table lets `codex exec` (approval_policy
    # "never") call memory_promote; the promotion is still approved in the server's form.
    (codex_home / "config.toml").write_text(config)


@pytest.mark.realcli("codex")
def test_codex_exec_declines_the_form_and_the_agents_digest_is_refused(
    tmp_path: Path, hermetic_env: dict[str, Path], entry_bin: Path
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    before = sample.repo.snapshot()
    # An agent that ignores the human's no: after the refusal it promotes with the digest.
    retrying = ScriptedAgent(retry_with_digest=("GM_APPROVAL_REQUIRED", "GM_PLAN_DECLINED"))
    agent = ResponsesAgent(retrying)
    with FakeModel(agent) as model:
        _configure(hermetic_env["codex"], model.url)
        env = dict(os.environ, SCRIPTED_MODEL_API_KEY="dummy")
        completed = subprocess.run(
            ["codex", "exec", "--skip-git-repo-check", PROMPT],
            cwd=sample.root,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    model.dump(tmp_path / "requests.jsonl")
    assert not model.errors, model.errors[0]
    output = completed.stderr[-4000:] + completed.stdout[-2000:]
    assert completed.returncode == 0, output
    # Every model request offered the tools, the first one too: the server was ready in time.
    assert agent.turns > 0
    assert len(agent.offered) == agent.turns, output
    check_offered_tools(agent.offered)
    names = [name for name, _ in agent.agent.calls]
    assert names == [*FLOW, "memory_promote"], names
    for name, document in agent.agent.seen[:-2]:
        assert "code" not in document, (name, document)
    # `codex exec` answers the form with `decline`: the plan is void, and the digest the
    # agent passes next is refused as well.
    (_, declined), (_, retried) = agent.agent.seen[-2:]
    assert declined["code"] == "GM_PLAN_DECLINED", declined
    assert declined["details"] == {"form": "declined"}, declined
    assert retried["code"] == "GM_PLAN_DECLINED", retried
    assert agent.agent.calls[-1][1]["approve"]
    assert authorizations(sample.root) == []
    assert not (sample.root / ".memory" / "entries").exists()
    assert "Traceback" not in completed.stderr
    assert sample.repo.snapshot() == before


@pytest.mark.realcli("codex")
def test_codex_app_server_form_approves_the_promotion(
    tmp_path: Path, hermetic_env: dict[str, Path], entry_bin: Path
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    before = sample.repo.snapshot()
    agent = ResponsesAgent()
    with FakeModel(agent) as model:
        _configure(hermetic_env["codex"], model.url)
        env = dict(os.environ, SCRIPTED_MODEL_API_KEY="dummy")
        server = AppServer(sample.root, env, _human)
        try:
            server.request(
                "initialize",
                {
                    "clientInfo": {"name": "tests", "version": "1"},
                    "capabilities": {"experimentalApi": True},
                },
            )
            server.notify("initialized")
            # The person at the IDE is asked MCP forms; nothing else needs them here.
            forms_only = {"mcp_elicitations": True, "rules": False, "sandbox_approval": False}
            thread = server.request(
                "thread/start",
                {"cwd": str(sample.root), "approvalPolicy": {"granular": forms_only}},
            )
            turn = {"threadId": thread["thread"]["id"], "input": [{"type": "text", "text": PROMPT}]}
            server.request("turn/start", turn)
            server.wait_for("turn/completed", timeout=TIMEOUT)
        finally:
            stderr = server.close()
    model.dump(tmp_path / "requests.jsonl")
    assert not model.errors, model.errors[0]
    check_offered_tools(agent.offered)
    promoted = check_flow(agent.agent, sample.root, hermetic_env["state"])
    assert promoted["approvedVia"] == "elicitation"
    forms = [r for r in server.server_requests if r["method"] == "mcpServer/elicitation/request"]
    (form,) = [f for f in forms if promoted["planId"] in json.dumps(f)]
    assert form["params"]["serverName"] == "git-memory"
    assert all(path in json.dumps(form) for path in promoted["files"])
    assert "Traceback" not in stderr
    assert sample.repo.snapshot() == before


def _human(request: dict[str, Any]) -> dict[str, Any]:
    """What the person at the IDE answers: approve the promotion form they were shown."""
    if request["method"] == "mcpServer/elicitation/request":
        return {"action": "accept", "content": {"decision": "approve"}}
    raise AssertionError(f"unexpected question from codex: {request}")
