"""Parity over the operation registry: every operation on both front ends, same documents.

Fails when an operation with `mcp_tool` is not served (or a tool is served that the registry
does not declare), when one without carries no CLI-only reason, when a narrower MCP request
has no one-sided reason, and when the MCP result or error of a request differs from what
`git memory … --format json` prints for the same request.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import types

from git_memory.mcp.server import MemoryServer
from git_memory.mcp.tools import first_paragraph, object_schema
from git_memory.ops.base import handler_doc, load_operation
from git_memory.ops.registry import OPERATIONS, OperationSpec
from git_memory.repo.binding import discover_worktree
from tests.conftest import resolve_cli_command
from tests.mcp.harness import check_like_typescript_sdk, connect, structured
from tests.mcp.parity_cases import CASES, Case
from tests.repos import Repo

MCP_SPECS = [d for d in OPERATIONS if d.mcp_tools]
# Every (declaration, tool name) pair: an operation with variants has one tool per document.
MCP_TOOLS = [(d, tool) for d in MCP_SPECS for tool in d.mcp_tools]
LIVE_CASES = [case for case in CASES if any(case.tool in d.mcp_tools for d in MCP_SPECS)]


def _list_tools(root: Path) -> list[types.Tool]:
    async def scenario() -> list[types.Tool]:
        async with connect(MemoryServer.create(root).lowlevel()) as client:
            return (await client.list_tools()).tools

    return anyio.run(scenario)


def _call(root: Path, tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
    async def scenario() -> types.CallToolResult:
        async with connect(MemoryServer.create(root).lowlevel()) as client:
            return await client.call_tool(tool, arguments)

    return anyio.run(scenario)


def test_served_tools_are_exactly_the_registry_tools(repo: Repo) -> None:
    assert [tool.name for tool in _list_tools(repo.root)] == [tool for _, tool in MCP_TOOLS]


@pytest.mark.parametrize("declaration", OPERATIONS, ids=lambda d: d.name)
def test_operation_is_on_both_sides_or_says_why(declaration: OperationSpec, repo: Repo) -> None:
    assert resolve_cli_command(declaration.cli_path) is not None, "no CLI command"
    operation = load_operation(declaration.name)
    if not declaration.mcp_tools:
        assert declaration.cli_only_reason, "an operation without MCP tool must say why"
        assert operation.mcp_request_model is None
        return
    assert declaration.cli_only_reason is None
    tools = {tool.name: tool for tool in _list_tools(repo.root)}
    narrow = operation.mcp_request_model
    response_schema = object_schema(
        operation.response_model.model_json_schema(mode="serialization")
    )
    for variant in declaration.mcp_variants:
        # Together the variants take exactly the documents the CLI command takes.
        model = operation.mcp_variant_models[variant.document]
        assert model.model_fields["format"].default == variant.document
        _shows_the_fields(tools[variant.tool].input_schema, model, without={"format"})
        assert tools[variant.tool].output_schema == response_schema
    accepted = {variant.document for variant in declaration.mcp_variants}
    assert accepted == set(operation.mcp_variant_models)
    if declaration.mcp_tool is not None:
        tool = tools[declaration.mcp_tool]
        _shows_the_fields(tool.input_schema, narrow or operation.request_model, without=set())
        assert tool.output_schema == response_schema
    if narrow is not None:
        assert declaration.one_sided_reason, "a narrower MCP request needs a one-sided reason"
        assert set(narrow.model_fields) <= set(operation.request_model.model_fields)
        # A preview over MCP can never carry an approval or ask for delivery.
        assert not {f for f in narrow.model_fields if f.lower().startswith(("approve", "deliver"))}
    hints = tools[declaration.mcp_tools[0]].annotations
    assert hints is not None
    overrides = operation.mcp_annotations or {}
    expected_read_only = overrides.get("readOnlyHint", declaration.side_effect == "none")
    assert hints.read_only_hint is expected_read_only
    expected_destructive = overrides.get(
        "destructiveHint", declaration.side_effect in {"worktree", "external-delivery"}
    )
    assert hints.destructive_hint is expected_destructive


def _shows_the_fields(schema: dict[str, Any], model: Any, without: set[str]) -> None:
    """The tool's input schema names every request field, requires what the model requires,
    and has nothing an agent client refuses (a union at the top, references)."""
    fields = {info.alias or name: info for name, info in model.model_fields.items()}
    assert schema["type"] == "object"
    assert not {"oneOf", "anyOf", "allOf", "$ref", "$defs"} & set(schema)
    assert "$ref" not in json.dumps(schema)
    assert set(schema["properties"]) == set(fields) - without
    required = {name for name, info in fields.items() if info.is_required()} - without
    assert set(schema.get("required", [])) == required


# Every MCP tool with the hints it must advertise.
READ_ONLY_TOOLS = {"memory_status", "memory_search", "memory_review"}
DESTRUCTIVE_TOOLS = {"memory_promote"}


@pytest.mark.parametrize(("declaration", "name"), MCP_TOOLS, ids=lambda v: getattr(v, "name", v))
def test_named_tools_carry_their_hints(declaration: OperationSpec, name: str, repo: Repo) -> None:
    tool = next(t for t in _list_tools(repo.root) if t.name == name)
    assert tool.annotations is not None
    if tool.name in READ_ONLY_TOOLS:
        assert tool.annotations.read_only_hint is True
    if tool.name in DESTRUCTIVE_TOOLS:
        assert tool.annotations.destructive_hint is True
        assert tool.annotations.read_only_hint is False
    # The description is the first paragraph of the CLI's --help text, unless the operation
    # says what it is over MCP (a preview that never sends, promote's elicitation approval),
    # or the tool stages one kind of document.
    operation = load_operation(declaration.name)
    variants = {variant.tool: variant.summary for variant in declaration.mcp_variants}
    expected = variants.get(name) or operation.mcp_description
    assert (tool.description or "").startswith(expected or first_paragraph(handler_doc(operation)))
    if operation.mcp_summary:
        assert tool.title == operation.mcp_summary.rstrip(".") or (
            tool.annotations.title == operation.mcp_summary.rstrip(".")
        )


def _cli_document(
    gm: Any, repo: Repo, tmp_path: Path, declaration: OperationSpec, case: Case
) -> Any:
    words = list(declaration.cli_path)
    if case.cli_args is not None:
        words += list(case.cli_args)
    else:
        request = tmp_path / "request.json"
        request.write_text(json.dumps(case.arguments))
        words += ["--request", str(request)]
    result = gm([*words, "--format", "json"], cwd=repo.root)
    document = json.loads(result.stdout)
    if document.get("format") == "git-memory-error@v1":
        assert result.exit_code != 0
        return True, document["error"]
    assert result.exit_code in (0, 1), result.stderr
    return False, document


def _copy_state(repo: Repo, state: Path, into: Path) -> None:
    shutil.copytree(state, into / "state", symlinks=True)
    shutil.copytree(repo.root, into / "worktree", symlinks=True, ignore=_skip_git)


def _restore_state(repo: Repo, state: Path, saved: Path) -> None:
    """Put the private state and the worktree files back as they were (`.git` is only read)."""
    shutil.rmtree(state)
    shutil.copytree(saved / "state", state, symlinks=True)
    for child in repo.root.iterdir():
        if child.name == ".git":
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()
    shutil.copytree(saved / "worktree", repo.root, symlinks=True, dirs_exist_ok=True)


def _skip_git(directory: str, names: list[str]) -> list[str]:
    return [".git"] if ".git" in names else []


@pytest.mark.parametrize("case", LIVE_CASES, ids=lambda c: f"{c.tool}-{c.label}")
def test_mcp_and_cli_give_the_same_document(
    case: Case, gm: Any, repo: Repo, hermetic_env: dict[str, Path], tmp_path: Path
) -> None:
    # Both front ends start from the same private state and worktree files.
    declaration = next(d for d in MCP_SPECS if case.tool in d.mcp_tools)
    # The origin secret (the keys of the binding) exists before the snapshot, as after any
    # first command; otherwise each side would mint its own.
    discover_worktree(repo.root).binding()
    if case.setup is not None:
        case.setup(gm, repo, hermetic_env)
    saved = tmp_path / "saved"
    _copy_state(repo, hermetic_env["state"], saved)
    result = _call(repo.root, case.tool, case.arguments)
    _restore_state(repo, hermetic_env["state"], saved)
    is_error, cli_document = _cli_document(gm, repo, tmp_path, declaration, case)
    assert result.is_error is is_error, (structured(result), cli_document)
    assert structured(result) == cli_document
    # What a TypeScript-SDK client (the MCP Inspector, many IDEs) would check of the result.
    tool = next(t for t in _list_tools(repo.root) if t.name == case.tool)
    check_like_typescript_sdk(tool, result)


@pytest.mark.parametrize(("declaration", "name"), MCP_TOOLS, ids=lambda v: getattr(v, "name", v))
def test_malformed_request_gives_the_same_error(
    declaration: OperationSpec, name: str, gm: Any, repo: Repo, tmp_path: Path
) -> None:
    arguments: dict[str, Any] = {"bogus": 1}
    result = _call(repo.root, name, arguments)
    assert result.is_error
    document = structured(result)
    assert document["code"] == "GM_REQUEST_INVALID"
    # A staging tool names its document kind; the CLI reads it from the document.
    kinds = {variant.tool: variant.document for variant in declaration.mcp_variants}
    if name in kinds:
        arguments = {"format": kinds[name], **arguments}
    if load_operation(declaration.name).accepts_request_file:
        case = Case(name, arguments, "malformed")
        is_error, cli_document = _cli_document(gm, repo, tmp_path, declaration, case)
        assert is_error
        assert cli_document == document
