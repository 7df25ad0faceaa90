"""Pieces of the MCP front end that need no client: questions, tokens, hints, the command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from git_memory.errors import GitMemoryError
from git_memory.mcp import elicitation
from git_memory.mcp.tools import ToolBinding
from git_memory.ops.base import Operation
from git_memory.ops.registry import OperationSpec
from tests.conftest import PROJECT_ROOT
from tests.mcp.approval_probe import OPERATION as PROBE
from tests.repos import Repo


def test_question_shows_summary_and_diff_and_cuts_huge_diffs() -> None:
    small = elicitation.Question("Promote 1 file?", "+line\n")
    assert small.message() == "Promote 1 file?\n\n+line\n"
    huge = elicitation.Question("Promote?", "+" + "x" * (elicitation.MAX_MESSAGE_CHARS + 10))
    message = huge.message()
    assert "diff cut at" in message
    assert "reject unless you have read it whole" in message
    assert len(message) < elicitation.MAX_MESSAGE_CHARS + 300
    assert small.digest() != elicitation.Question("Promote 1 file?", "+other\n").digest()


def test_only_an_accepted_approve_approves_and_only_a_no_declines() -> None:
    assert elicitation.answer_of("accept", {"decision": "approve"}) == "approved"
    assert elicitation.answer_of("accept", {"decision": "reject"}) == "declined"
    assert elicitation.answer_of("decline", {"decision": "approve"}) == "declined"
    assert elicitation.answer_of("decline", None) == "declined"
    # No decision is no answer: the agent's digest path stays open.
    assert elicitation.answer_of("accept", None) == "cancelled"
    assert elicitation.answer_of("accept", {"decision": "maybe"}) == "cancelled"
    assert elicitation.answer_of("cancel", None) == "cancelled"


def test_a_form_the_client_cannot_show_fails_clearly_for_a_yes_no_question() -> None:
    def refuse(message: str, schema: dict[str, Any]) -> tuple[str, Any]:
        raise elicitation.FormFailed("no form UI here")

    form = elicitation.blocking_form(refuse)
    assert form("s", "d") == "failed"
    with pytest.raises(GitMemoryError) as failed:
        elicitation.confirm_by(form)("s", "d")
    assert failed.value.code == "GM_MCP_ELICITATION_FAILED"


def test_pending_tokens_are_single_use_and_bound_to_the_call() -> None:
    pending = elicitation.PendingQuestions()
    question = elicitation.Question("s", "d")
    token = pending.ask("memory_promote", "args", question)
    assert pending.answer(token, "memory_promote", "other-args") is None
    token = pending.ask("memory_promote", "args", question)
    assert pending.answer(token, "memory_promote", "args") == question.digest()
    assert pending.answer(token, "memory_promote", "args") is None
    tokens = [pending.ask("memory_promote", str(n), question) for n in range(40)]
    assert len(pending.pending) == elicitation.MAX_PENDING
    assert pending.answer(tokens[0], "memory_promote", "0") is None
    assert pending.answer(tokens[-1], "memory_promote", "39") == question.digest()


def test_round_form_answers_only_the_question_asked() -> None:
    question = elicitation.Question("s", "d")
    form = elicitation.RoundForm({question.digest(): "declined"})
    assert form("s", "d") == "declined"
    assert elicitation.confirm_by(form)("s", "d") is False
    with pytest.raises(elicitation.ElicitationPending) as pending:
        form("s", "changed diff")
    assert pending.value.question.diff == "changed diff"


def _binding(side_effect: Any, hints: dict[str, bool] | None = None) -> ToolBinding:
    spec = OperationSpec("x", "m", "Do x.", side_effect, ("x",), mcp_tool="memory_x")
    operation = Operation(
        spec=spec,
        request_model=PROBE.request_model,
        response_model=PROBE.response_model,
        handler=PROBE.handler,
        mcp_annotations=hints,
    )
    return ToolBinding(spec, operation)


def test_annotations_follow_the_side_effect_and_overrides() -> None:
    assert _binding("none").annotations()["readOnlyHint"] is True
    worktree = _binding("worktree", {"idempotentHint": True}).annotations()
    assert worktree["destructiveHint"] is True
    assert worktree["readOnlyHint"] is False
    assert worktree["idempotentHint"] is True
    assert worktree["title"] == "Do x"
    private = _binding("private-state").annotations()
    assert (private["readOnlyHint"], private["destructiveHint"]) == (False, False)
    assert _binding("external-delivery").annotations()["openWorldHint"] is True


def test_mcp_command_is_listed_and_documented(gm: Any) -> None:
    listing = gm(["-h"])
    assert "mcp" in listing.stdout
    assert "Serve the operations as MCP tools" in listing.stdout
    own = gm(["mcp", "-h"])
    assert own.exit_code == 0
    assert "--repository" in own.stdout
    assert "claude mcp add --scope user git-memory -- git memory mcp" in own.stdout


def test_raw_protocol_garbage_gets_json_rpc_errors_not_a_crash(repo: Repo) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(PROJECT_ROOT)
    lines = [
        "this is not json",
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"},
                },
            }
        ),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "memory_status", "arguments": "not an object"},
            }
        ),
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "tools/call",
                "params": {"name": "memory_status", "arguments": {}},
            }
        ),
    ]
    replies: dict[int, Any] = {}
    with subprocess.Popen(
        [sys.executable, "-m", "git_memory", "mcp"],
        cwd=repo.root,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as server:
        assert server.stdin is not None
        assert server.stdout is not None
        for line in lines:
            server.stdin.write(line + "\n")
            server.stdin.flush()
            if '"id"' in line:  # a request: wait for its reply before the next line
                message = json.loads(server.stdout.readline())
                replies[message["id"]] = message
        server.stdin.close()
        assert server.wait(timeout=60) == 0
    assert replies[1]["result"]["serverInfo"]["name"] == "git-memory"
    assert replies[2]["error"]["code"] == -32602  # invalid params, as JSON-RPC says
    status = replies[3]["result"]
    assert status["isError"] is False
    assert status["structuredContent"]["format"] == "git-memory-status@v1"


def test_registration_snippets_name_the_real_command_and_tools() -> None:
    import tomllib

    contrib = PROJECT_ROOT / "contrib" / "mcp"
    codex = tomllib.loads((contrib / "codex-config.toml").read_text())
    entry = codex["mcp_servers"]["git-memory"]
    assert [entry["command"], *entry["args"]] == ["git", "memory", "mcp"]
    # Codex passes a server only the variables it names.
    assert "GIT_MEMORY_HOME" in entry["env_vars"]
    claude = json.loads((contrib / "claude-mcp.json").read_text())["mcpServers"]["git-memory"]
    assert [claude["command"], *claude["args"]] == ["git", "memory", "mcp"]
    readme = (contrib / "README.md").read_text()
    assert "claude mcp add --scope user git-memory -- git memory mcp" in readme
    settings = json.loads((contrib / "claude-settings.json").read_text())
    assert settings["enabledMcpjsonServers"] == ["git-memory"]
    permissions = settings["permissions"]
    # One rule allows the server's tools; `ask` rules win over it for the ones that change
    # the worktree or carry the human's confirmation.
    assert permissions["allow"] == ["mcp__git-memory__*"]
    from git_memory.mcp.tools import load_tools

    for name, binding in load_tools().items():
        asked = f"mcp__git-memory__{name}" in permissions["ask"]
        assert name in readme
        if binding.annotations()["destructiveHint"]:
            assert asked, f"{name} is destructive: the agent must ask"
    assert {rule.removeprefix("mcp__git-memory__") for rule in permissions["ask"]} == {
        "memory_prepare",
        "memory_promote",
        "memory_assemble",
    }


def test_the_running_server_leaves_out_an_operation_that_cannot_load(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from git_memory.mcp.tools import load_tools
    from tests.mcp.approval_probe import PROBE_SPEC

    broken = OperationSpec(
        "broken", "tests.mcp.no_such_module", "Broken.", "none", ("broken",), mcp_tool="memory_b"
    )
    with pytest.raises(ModuleNotFoundError):
        load_tools((PROBE_SPEC, broken))
    served = load_tools((PROBE_SPEC, broken), strict=False)
    assert list(served) == ["memory_probe"]
    assert "memory_b left out" in capsys.readouterr().err


def test_an_unexpected_exception_is_gm_internal_with_a_private_log(
    repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    import anyio

    from git_memory.mcp.server import MemoryServer, bind
    from git_memory.mcp.tools import load_tools
    from tests.mcp.approval_probe import PROBE_SPEC
    from tests.mcp.harness import connect, structured

    server = MemoryServer(bind(repo.root), load_tools((PROBE_SPEC,))).lowlevel()

    async def scenario() -> Any:
        async with connect(server) as client:
            return await client.call_tool("memory_probe", {"change": "explode"})

    document = structured(anyio.run(scenario))
    assert document["code"] == "GM_INTERNAL"
    log = Path(document["next"].removeprefix("see log at "))
    assert log.is_file()
    assert log.is_relative_to(hermetic_env["state"])
    assert "a bug in an operation" in log.read_text()
    assert log.stat().st_mode & 0o777 == 0o600


def test_the_typescript_sdk_check_refuses_an_error_document_as_structured_content() -> None:
    # What the MCP Inspector reported: `{code, problem, next}` against the status schema.
    from mcp import types

    from git_memory.mcp.server import error_result
    from git_memory.mcp.tools import load_tools
    from tests.mcp.harness import check_like_typescript_sdk

    binding = load_tools()["memory_status"]
    tool = types.Tool(
        name=binding.name,
        input_schema=binding.input_schema(),
        output_schema=binding.output_schema(),
    )
    error = {"code": "GM_NOT_A_WORKTREE", "problem": "not a git worktree", "next": None}
    text = [types.TextContent(type="text", text=json.dumps(error))]
    old = types.CallToolResult(content=text, structured_content=error, is_error=True)
    with pytest.raises(AssertionError, match="does not match"):
        check_like_typescript_sdk(tool, old)
    from git_memory.errors import GitMemoryError

    current = error_result(GitMemoryError("GM_NOT_A_WORKTREE", "not a git worktree"))
    check_like_typescript_sdk(tool, current)
    assert current.structured_content is None
    assert json.loads(current.content[0].text)["code"] == "GM_NOT_A_WORKTREE"
