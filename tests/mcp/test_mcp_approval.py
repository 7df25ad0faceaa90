"""Human approval over MCP: elicitation when the client can ask, the agent's digest otherwise.

Uses the test-only probe operation (tests/mcp/approval_probe.py), which follows the yes/no
`ctx.confirm` / `ctx.via` contract of every operation that asks, served by a real stdio server.
Promotion asks through `ctx.form` first, where a declined form is final: see
tests/mcp/test_mcp_human_no.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import types
from mcp_types._v2025_11_25 import PrimitiveSchemaDefinition
from pydantic import TypeAdapter

from tests.mcp.approval_probe import change_digest, read_log
from tests.mcp.harness import Elicit, answer, server_parameters, stdio, structured
from tests.repos import Repo

MODES = ["legacy", "2026-07-28"]


def _call(
    repo: Repo,
    tmp_path: Path,
    arguments: dict[str, Any],
    *,
    mode: str,
    elicit: Elicit | None,
    tool: str = "memory_probe",
) -> types.CallToolResult:
    params = server_parameters(repo.root, with_probe=True)

    async def scenario() -> types.CallToolResult:
        async with stdio(params, tmp_path / "err.log", mode=mode, elicit=elicit) as client:
            return await client.call_tool(tool, arguments)

    return anyio.run(scenario)


@pytest.mark.parametrize("mode", MODES)
def test_accepted_elicitation_applies_and_records_via_elicitation(
    mode: str, repo: Repo, tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    seen: list[types.ElicitRequestParams] = []
    result = _call(repo, tmp_path, {"change": "use uv"}, mode=mode, elicit=answer("approve", seen))
    assert not result.is_error, result.structured_content
    assert structured(result)["via"] == "elicitation"
    assert read_log(hermetic_env["state"]) == [{"change": "use uv", "via": "elicitation"}]
    assert len(seen) == 1
    form = seen[0]
    assert isinstance(form, types.ElicitRequestFormParams)
    assert "use uv" in form.message
    assert "+use uv" in form.message  # the diff itself is shown
    schema = form.requested_schema
    assert schema["type"] == "object"
    adapter: TypeAdapter[Any] = TypeAdapter(PrimitiveSchemaDefinition)
    for prop in schema["properties"].values():
        adapter.validate_python(prop)  # only string/boolean/number/enum fields
        assert prop["type"] in {"string", "boolean"}


def _calls(
    repo: Repo, tmp_path: Path, calls: list[dict[str, Any]], *, mode: str, elicit: Elicit | None
) -> list[types.CallToolResult]:
    params = server_parameters(repo.root, with_probe=True)

    async def scenario() -> list[types.CallToolResult]:
        async with stdio(params, tmp_path / "err.log", mode=mode, elicit=elicit) as client:
            return [await client.call_tool("memory_probe", arguments) for arguments in calls]

    return anyio.run(scenario)


@pytest.mark.parametrize("mode", MODES)
def test_rejected_or_declined_elicitation_changes_nothing(
    mode: str, repo: Repo, tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    seen: list[types.ElicitRequestParams] = []
    elicit = answer(["reject", None], seen)  # the human rejects, then dismisses the form
    results = _calls(repo, tmp_path, [{"change": "x"}, {"change": "y"}], mode=mode, elicit=elicit)
    for result in results:
        assert result.is_error
        assert structured(result)["code"] == "GM_PROBE_DECLINED"
    assert len(seen) == 2
    assert read_log(hermetic_env["state"]) == []


def test_without_elicitation_the_agent_digest_is_required(
    repo: Repo, tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    calls = [
        {"change": "x"},
        {"change": "x", "approve": "0" * 64},
        {"change": "x", "approve": change_digest("x")},
    ]
    missing, wrong, applied = _calls(repo, tmp_path, calls, mode="legacy", elicit=None)
    assert structured(missing)["code"] == "GM_PROBE_APPROVAL_REQUIRED"
    assert structured(wrong)["code"] == "GM_PROBE_APPROVAL_MISMATCH"
    assert not applied.is_error
    assert structured(applied)["via"] == "agent"
    assert read_log(hermetic_env["state"]) == [{"change": "x", "via": "agent"}]


def test_a_forged_request_state_is_refused(
    repo: Repo, tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    params = server_parameters(repo.root, with_probe=True)
    accept = types.ElicitResult(action="accept", content={"decision": "approve"})

    async def scenario() -> tuple[Any, Any, Any]:
        elicit = answer("approve", [])
        async with stdio(params, tmp_path / "err.log", mode="2026-07-28", elicit=elicit) as client:
            forged = await client.session.call_tool(
                "memory_probe",
                {"change": "x"},
                request_state="made-up",
                input_responses={"approval": accept},
            )
            first = await client.session.call_tool(
                "memory_probe", {"change": "x"}, allow_input_required=True
            )
            assert isinstance(first, types.InputRequiredResult)
            # The token answers only the call it was issued for.
            other = await client.session.call_tool(
                "memory_probe",
                {"change": "y"},
                request_state=first.request_state,
                input_responses={"approval": accept},
            )
            return forged, first, other

    forged, first, other = anyio.run(scenario)
    assert structured(forged)["code"] == "GM_MCP_APPROVAL_UNKNOWN"
    assert set(first.input_requests) == {"approval"}
    assert structured(other)["code"] == "GM_MCP_APPROVAL_UNKNOWN"
    assert read_log(hermetic_env["state"]) == []


def test_preview_only_tool_cannot_carry_an_approval(
    repo: Repo, tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    params = server_parameters(repo.root, with_probe=True)

    async def scenario() -> tuple[list[types.Tool], types.CallToolResult]:
        async with stdio(params, tmp_path / "err.log") as client:
            tools = (await client.list_tools()).tools
            result = await client.call_tool(
                "memory_probe_preview", {"change": "x", "approve": change_digest("x")}
            )
            return tools, result

    tools, result = anyio.run(scenario)
    # Even a client that can ask the human gets no question from a preview-only tool.
    asked: list[types.ElicitRequestParams] = []
    unasked = _call(
        repo,
        tmp_path,
        {"change": "x"},
        mode="legacy",
        elicit=answer("approve", asked),
        tool="memory_probe_preview",
    )
    assert structured(unasked)["code"] == "GM_PROBE_APPROVAL_REQUIRED"
    assert asked == []
    preview = next(tool for tool in tools if tool.name == "memory_probe_preview")
    assert "approve" not in preview.input_schema["properties"]
    assert "only previews" in (preview.description or "")
    assert structured(result)["code"] == "GM_REQUEST_INVALID"
    assert read_log(hermetic_env["state"]) == []


def test_a_client_that_cannot_ask_gives_a_clear_error(
    repo: Repo, tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    async def refuse(context: Any, params: types.ElicitRequestParams) -> types.ErrorData:
        return types.ErrorData(code=-32600, message="no form UI here")

    result = _call(repo, tmp_path, {"change": "x"}, mode="legacy", elicit=refuse)  # type: ignore[arg-type]
    document = structured(result)
    assert document["code"] == "GM_MCP_ELICITATION_FAILED"
    assert "digest" in document["next"]
    assert read_log(hermetic_env["state"]) == []
