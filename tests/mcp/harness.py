"""Start `git memory mcp` with the SDK's real stdio client, inside the hermetic environment."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters, types
from mcp.client.stdio import stdio_client

from tests.conftest import PROJECT_ROOT

PROBE_SERVER = Path(__file__).with_name("serve_with_probe.py")
# The arguments that make the server list every tool, not only the everyday flow's.
ALL_TOOLS = ("--tools", "all")

Elicit = Callable[[Any, types.ElicitRequestParams], Awaitable[types.ElicitResult]]


def server_parameters(
    cwd: Path, args: tuple[str, ...] = (), *, with_probe: bool = False
) -> StdioServerParameters:
    """`python -m git_memory mcp ARGS` (or the probe launcher) with this checkout first."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(PROJECT_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    argv = [str(PROBE_SERVER), *args] if with_probe else ["-m", "git_memory", "mcp", *args]
    return StdioServerParameters(command=sys.executable, args=argv, env=env, cwd=str(cwd))


@asynccontextmanager
async def connect(
    server: Any, *, mode: str = "legacy", elicit: Elicit | None = None
) -> AsyncIterator[Client]:
    """An initialized SDK client (stdio parameters or an in-process lowlevel Server)."""
    async with Client(server, mode=mode, elicitation_callback=elicit) as client:
        yield client


@asynccontextmanager
async def stdio(
    params: StdioServerParameters,
    errlog: Path,
    *,
    mode: str = "legacy",
    elicit: Elicit | None = None,
) -> AsyncIterator[Client]:
    """A client of a real `git memory mcp` subprocess; its stderr goes to `errlog`."""
    with errlog.open("a", encoding="utf-8") as log:
        async with connect(stdio_client(params, errlog=log), mode=mode, elicit=elicit) as client:
            yield client


def structured(result: types.CallToolResult) -> Any:
    """The result's JSON document: the structured content of a success, checked to equal the
    text content; an error's `{code, problem, next}` text (errors carry no structured content,
    which would contradict the tool's output schema)."""
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    document = json.loads(block.text)
    if result.is_error:
        assert result.structured_content is None
        assert {"code", "problem", "next"} <= set(document)
        return document
    assert document == result.structured_content
    return document


def check_like_typescript_sdk(tool: types.Tool, result: types.CallToolResult) -> None:
    """What a TypeScript-SDK client checks of a tool result against the tool's output schema.

    It refuses a success without structured content, and any structured content (even on an
    error result) that does not validate against the output schema.
    """
    import jsonschema

    if tool.output_schema is None:
        return
    if result.structured_content is None:
        assert result.is_error, f"{tool.name}: a success must carry structured content"
        return
    validator_class = jsonschema.validators.validator_for(tool.output_schema)
    errors = list(validator_class(tool.output_schema).iter_errors(result.structured_content))
    assert not errors, f"{tool.name}: structured content does not match: {errors[0].message}"


def answer(
    decision: str | list[str | None] | None, seen: list[types.ElicitRequestParams]
) -> Elicit:
    """An elicitation callback that records each request and answers like a human would.

    `decision` is `approve`/`reject` (accept the form with that choice), None (decline the
    form), `cancel` (dismiss it without a decision), or a list of those, one per question in
    order.
    """
    script = list(decision) if isinstance(decision, list) else None

    async def callback(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        seen.append(params)
        choice = script.pop(0) if script is not None else decision
        if choice is None:
            return types.ElicitResult(action="decline")
        if choice == "cancel":
            return types.ElicitResult(action="cancel")
        return types.ElicitResult(action="accept", content={"decision": choice})

    return callback
