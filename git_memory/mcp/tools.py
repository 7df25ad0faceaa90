"""MCP tools generated from the operation registry.

Every operation declared with `mcp_tool` becomes one tool (one per document kind for an
operation with `mcp_variants`): its description is the first paragraph of the handler's
docstring (the CLI's `--help`), its input schema the compact form of the operation's pydantic
request model (see `mcp/shapes.py`), its output schema the response model, and its result the
same JSON document that `git memory <command> --format json` prints. Errors are
`{code, problem, next}` documents with the CLI's `GM_` codes.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from git_memory import output
from git_memory.errors import GitMemoryError
from git_memory.formats.controls import escape_json_controls
from git_memory.mcp.shapes import MAX_DEPTH, compact_schema
from git_memory.ops.base import (
    OpContext,
    Operation,
    handler_doc,
    load_declared,
    request_invalid,
)
from git_memory.ops.registry import OPERATIONS, McpVariant, OperationSpec
from git_memory.paths import write_crash_log

if TYPE_CHECKING:
    from pydantic import BaseModel

    from git_memory.ops.registry import SideEffect

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
    """One MCP tool and the operation it runs (`variant`: the one document kind it takes)."""

    spec: OperationSpec
    operation: Operation[Any, Any]
    variant: McpVariant | None = None

    @property
    def name(self) -> str:
        """The tool name (`memory_<what>`)."""
        if self.variant is not None:
            return self.variant.tool
        assert self.spec.mcp_tool is not None
        return self.spec.mcp_tool

    @property
    def summary(self) -> str:
        """One line: what the tool does (its title)."""
        if self.variant is not None:
            return self.variant.summary
        return self.operation.mcp_summary or self.spec.summary

    def request_model(self) -> type[BaseModel]:
        """The pydantic model the tool arguments are (a document kind, or the request)."""
        if self.variant is not None:
            return self.operation.mcp_variant_models[self.variant.document]
        model: type[BaseModel] = self.operation.mcp_request_model or self.operation.request_model
        return model

    def input_schema(self) -> dict[str, Any]:
        """The compact JSON Schema of the tool arguments (see `mcp/shapes.py`)."""
        # A document the agent writes shows its fields one level deep: the task it answers
        # carries the whole schema (`contract.documentSchema`).
        depth = 1 if self.variant is not None else MAX_DEPTH
        schema = compact_schema(self.request_model().model_json_schema(), depth=depth)
        if self.variant is not None:
            # The tool names the document kind; its `format` may be left out.
            schema["properties"].pop("format", None)
            schema["required"] = [name for name in schema.get("required", []) if name != "format"]
        return schema

    def output_schema(self) -> dict[str, Any]:
        """The JSON Schema of the structured result (the response model)."""
        return object_schema(self.operation.response_model.model_json_schema(mode="serialization"))

    def annotations(self) -> dict[str, Any]:
        """MCP tool annotations (camelCase wire names)."""
        hints: dict[str, Any] = {"title": self.summary.rstrip(".")}
        hints.update(_ANNOTATIONS[self.spec.side_effect])
        hints["openWorldHint"] = self.spec.side_effect == "external-delivery"
        hints.update(self.operation.mcp_annotations or {})
        return hints

    def description(self) -> str:
        """What the model reads about the tool: its purpose and what to pass, kept short."""
        if self.variant is not None:
            text = f"{self.variant.summary}\n\n{STAGE_NOTE}"
        else:
            text = self.operation.mcp_description or first_paragraph(handler_doc(self.operation))
        if self.spec.one_sided_reason:
            text += f"\n\nOver MCP: {self.spec.one_sided_reason}"
        return text

    def parse(self, arguments: dict[str, Any] | None) -> Any:
        """Validate the arguments into the operation's request (GM_REQUEST_INVALID)."""
        raw = arguments if arguments is not None else {}
        if self.variant is not None:
            raw = self._document(raw)
        narrow = self.operation.mcp_request_model
        if narrow is not None:
            try:
                raw = narrow.model_validate(raw).model_dump(
                    mode="json", by_alias=True, exclude_unset=True
                )
            except ValidationError as exc:
                raise request_invalid(exc, self.operation.request_model) from exc
        return self.operation.parse_request(raw)

    def _document(self, raw: dict[str, Any]) -> dict[str, Any]:
        assert self.variant is not None
        given = raw.get("format", self.variant.document)
        if given != self.variant.document:
            other = [v.tool for v in self.spec.mcp_variants if v.document == given]
            raise GitMemoryError(
                "GM_REQUEST_INVALID",
                f"invalid request: format: {self.name} stages {self.variant.document}, "
                f"not {given!r}",
                hint=f"call {other[0]}" if other else "leave `format` out",
                details={"errors": [{"field": "format", "problem": "wrong document kind"}]},
            )
        return {**raw, "format": self.variant.document}

    def run(self, ctx: OpContext, arguments: dict[str, Any] | None) -> dict[str, Any]:
        """Run the operation; returns the response document (raises GitMemoryError)."""
        request = self.parse(arguments)
        response = self.operation.handler(ctx, request)
        document: dict[str, Any] = response.to_json()
        return document


# What every staging tool says after its one-line summary.
STAGE_NOTE = (
    "Pass the document's fields as the arguments (`format` may be left out). Its full JSON "
    "Schema comes with what asked for it: `contract.documentSchema` of the task you answer "
    "(for a skill, `guidance.skillDocumentSchema` of the recall). GM_REQUEST_INVALID lists "
    "the failing fields; staging the same bytes again replays the first outcome."
)


def first_paragraph(text: str) -> str:
    """The first paragraph of a docstring on one line."""
    return " ".join(text.strip().split("\n\n")[0].split())


def object_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with `type: object` at the top, as MCP requires of output schemas."""
    if schema.get("type") == "object":
        return schema
    return {"type": "object", **schema}


def mcp_specs(operations: Iterable[OperationSpec] = OPERATIONS) -> list[OperationSpec]:
    """The declarations that have an MCP tool, in registry order."""
    return [declaration for declaration in operations if declaration.mcp_tools]


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
            operation = load_declared(declaration)
        except Exception as exc:
            if strict:
                raise

            names = ", ".join(declaration.mcp_tools)
            output.echo(f"warning: tool {names} left out: {exc!r}", err=True)
            continue
        variants: tuple[McpVariant | None, ...] = declaration.mcp_variants or (None,)
        for variant in variants:
            binding = ToolBinding(declaration, operation, variant)
            bindings[binding.name] = binding
    return bindings


def document_text(document: Any) -> str:
    """The JSON text of a tool's result: the document `--format json` prints, as compact JSON
    (a model reads it, and the indentation of a recall's nested tasks was a fifth of its
    bytes), with control and invisible characters as `\\uXXXX` escapes, so a review shows them."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    return escape_json_controls(text)


def internal_error(state_home: Path | None) -> GitMemoryError:
    """A GM_INTERNAL error for an unexpected exception, with the traceback logged privately."""
    log = write_crash_log(traceback.format_exc(), home=state_home, label="crash-mcp")
    return GitMemoryError(
        "GM_INTERNAL",
        "internal error in git memory (this is a bug)",
        hint=f"see log at {log}" if log else "no log could be written",
    )
