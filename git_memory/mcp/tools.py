"""MCP tools generated from the operation registry.

Every operation declared with `mcp_tool` becomes one tool: its description is the handler's
docstring (the CLI's `--help`), its input schema the operation's pydantic request model, its
output schema the response model, and its result the same JSON document that
`git memory <command> --format json` prints. Errors are `{code, problem, next}` documents with
the CLI's `GM_` codes.
"""

from __future__ import annotations

import importlib
import json
import os
import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from git_memory.errors import GitMemoryError
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import OPERATIONS, OperationSpec, SideEffect

# Hints derived from what an operation may change; an operation overrides them with
# `mcp_annotations` (e.g. promote is idempotent: applying an applied plan replays success).
_ANNOTATIONS: dict[SideEffect, dict[str, bool]] = {
    "none": {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True},
    "private-state": {"readOnlyHint": False, "destructiveHint": False},
    "worktree": {"readOnlyHint": False, "destructiveHint": True},
    "external-delivery": {"readOnlyHint": False, "destructiveHint": True},
}


@dataclass(frozen=True)
class ToolBinding:
    """One MCP tool and the operation it runs."""

    spec: OperationSpec
    operation: Operation[Any, Any]

    @property
    def name(self) -> str:
        """The tool name (`memory_<what>`)."""
        assert self.spec.mcp_tool is not None
        return self.spec.mcp_tool

    def input_schema(self) -> dict[str, Any]:
        """The JSON Schema of the tool arguments (the request model)."""
        model = self.operation.mcp_request_model or self.operation.request_model
        return object_schema(model.model_json_schema())

    def output_schema(self) -> dict[str, Any]:
        """The JSON Schema of the structured result (the response model)."""
        return object_schema(self.operation.response_model.model_json_schema(mode="serialization"))

    def annotations(self) -> dict[str, Any]:
        """MCP tool annotations (camelCase wire names)."""
        summary = self.operation.mcp_summary or self.spec.summary
        hints: dict[str, Any] = {"title": summary.rstrip(".")}
        hints.update(_ANNOTATIONS[self.spec.side_effect])
        hints["openWorldHint"] = self.spec.side_effect == "external-delivery"
        hints.update(self.operation.mcp_annotations or {})
        return hints

    def description(self) -> str:
        """The handler's docstring, as in `git memory <command> --help`."""
        from git_memory.ops.base import handler_doc

        text = self.operation.mcp_description or handler_doc(self.operation)
        if self.spec.one_sided_reason:
            text += f"\n\nOver MCP: {self.spec.one_sided_reason}"
        return text

    def parse(self, arguments: dict[str, Any] | None) -> Any:
        """Validate the arguments into the operation's request (GM_REQUEST_INVALID)."""
        raw = arguments if arguments is not None else {}
        narrow = self.operation.mcp_request_model
        if narrow is not None:
            from pydantic import ValidationError

            from git_memory.ops.base import request_invalid

            try:
                raw = narrow.model_validate(raw).model_dump(mode="json", exclude_unset=True)
            except ValidationError as exc:
                raise request_invalid(exc, self.operation.request_model) from exc
        return self.operation.parse_request(raw)

    def run(self, ctx: OpContext, arguments: dict[str, Any] | None) -> dict[str, Any]:
        """Run the operation; returns the response document (raises GitMemoryError)."""
        request = self.parse(arguments)
        response = self.operation.handler(ctx, request)
        document: dict[str, Any] = response.to_json()
        return document


def object_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with `type: object` at the top, as MCP requires of tool schemas.

    A request that is one of several documents (stage) is a pydantic union whose schema is a
    bare `oneOf`; every branch is an object, so stating it at the top changes nothing.
    """
    if schema.get("type") == "object":
        return schema
    return {"type": "object", **schema}


def mcp_specs(operations: Iterable[OperationSpec] = OPERATIONS) -> list[OperationSpec]:
    """The declarations that have an MCP tool, in registry order."""
    return [declaration for declaration in operations if declaration.mcp_tool]


def load_tools(
    operations: Iterable[OperationSpec] = OPERATIONS, *, strict: bool = True
) -> dict[str, ToolBinding]:
    """Import every operation with an MCP tool and bind it, keyed by tool name.

    With `strict=False` (the running server) an operation that cannot be loaded is left out
    and reported on stderr, as the CLI fails only that command; the parity tests load strictly.
    """
    bindings: dict[str, ToolBinding] = {}
    for declaration in mcp_specs(operations):
        try:
            binding = ToolBinding(declaration, _load(declaration))
        except Exception as exc:
            if strict:
                raise
            from git_memory import output

            output.echo(f"warning: tool {declaration.mcp_tool} left out: {exc!r}", err=True)
            continue
        bindings[binding.name] = binding
    return bindings


def _load(declaration: OperationSpec) -> Operation[Any, Any]:
    # Same check as `load_operation`, but also for declarations outside the registry (tests
    # serve operations of their own).
    module = importlib.import_module(declaration.module)
    operation: Operation[Any, Any] = module.OPERATION
    if operation.spec is not declaration:
        raise RuntimeError(f"{declaration.module}.OPERATION is bound to another declaration")
    return operation


def document_text(document: Any) -> str:
    """The JSON text of a document exactly as `--format json` prints it (without newline)."""
    return json.dumps(document, ensure_ascii=False, indent=2, sort_keys=False)


def internal_error(state_home: Path | None) -> GitMemoryError:
    """A GM_INTERNAL error for an unexpected exception, with the traceback logged privately."""
    log = _write_crash_log(traceback.format_exc(), state_home)
    return GitMemoryError(
        "GM_INTERNAL",
        "internal error in git memory (this is a bug)",
        hint=f"see log at {log}" if log else "no log could be written",
    )


def _write_crash_log(text: str, home: Path | None) -> Path | None:
    from git_memory.paths import LOGS_DIR, ensure_private_dir, state_home, write_private_atomic

    try:
        logs = ensure_private_dir((home or state_home()) / LOGS_DIR)
        path = logs / f"crash-mcp-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}.log"
        write_private_atomic(path, text.encode("utf-8", "replace"))
    except Exception:
        return None
    return path
