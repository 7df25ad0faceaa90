"""Binding an operation declaration to its models, handler and CLI shape."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import stat
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from pydantic import ValidationError

from git_memory import output
from git_memory.errors import GitMemoryError, UsageError
from git_memory.formats import bounded_json
from git_memory.formats.controls import escape_controls
from git_memory.ops.registry import OperationSpec, spec
from git_memory.repo.binding import discover_worktree

if TYPE_CHECKING:
    import click
    from pydantic import BaseModel

    from git_memory.ops.short_ids import ShortIds
    from git_memory.promote.approval import FormFn
    from git_memory.repo.binding import Worktree

RequestT = TypeVar("RequestT", bound="BaseModel")
ResponseT = TypeVar("ResponseT", bound="BaseModel")


def _confirm_at_terminal(summary: str, diff: str) -> bool:
    """Ask at the terminal, every control and invisible character shown as an escape."""
    return output.confirm_after(escape_controls(summary), escape_controls(diff))


@dataclass
class OpContext:
    """Per-invocation context: where to run and how the caller can talk to a human."""

    repository: Path | str | None = None
    interactive: bool = False
    # Set by front ends that can ask a human (CLI on a TTY, MCP elicitation):
    # `confirm(summary, diff)` shows both to the human and returns True only on approval. An
    # operation calls it before it changes anything: over MCP it may be answered on a later
    # round of the same tool call, which runs the handler again from the start.
    confirm: Callable[[str, str], bool] | None = None
    # Set over MCP when the client shows forms: `form(summary, diff)` returns the human's
    # answer itself (approved, declined, cancelled, failed); promotion asks through it first,
    # because a decline voids the plan while a cancel leaves the agent's digest.
    form: FormFn | None = None
    # Who approves: "cli", "elicitation" (the MCP client asked the human) or "agent" (the MCP
    # client cannot ask; the agent passes the digest the human saw). Recorded in approval logs.
    via: str = "cli"
    # The front end that called: over MCP a digest approval is the agent's, and a terminal is
    # never asked.
    front_end: Literal["cli", "mcp"] = "cli"
    # What the caller prints the response as (`text`, `json`, or lint's `sarif`): progress
    # lines and renderings follow it.
    output_format: str = "text"
    # review's `--confirm-typed-facts`: confirm every typed fact without asking.
    confirm_typed_facts: bool = False

    @classmethod
    def at_terminal(cls, repository: Path | str | None = None) -> OpContext:
        """The context of a command run by a human at a terminal: asks through the one
        terminal prompt, and records the approvals it gets as `interactive`."""
        return cls(
            repository=repository,
            interactive=True,
            confirm=_confirm_at_terminal,
            via="interactive",
        )

    @cached_property
    def worktree(self) -> Worktree:
        """The worktree this invocation is bound to (discovered once)."""
        return discover_worktree(self.repository)

    @property
    def state_home(self) -> Path:
        """The private state home."""
        return self.worktree.state_home


@dataclass(frozen=True)
class Operation(Generic[RequestT, ResponseT]):
    """An operation: declaration + request/response models + handler + front-end hints.

    `cli_params` are extra click parameters; `from_cli` turns their values into a request
    (when `--request` is not given). `render_text` is the human rendering of a response and
    `exit_code` maps a successful response to an exit status (lint: 1 when blocked). A
    rendering that prints ids is `render_text_with_ids` instead: it is also given a `ShortIds`
    that abbreviates each id against every id of its kind, so a printed id typed back names it
    alone. `render_text_verbose`, when set, is what `--verbose` prints.
    """

    spec: OperationSpec
    request_model: type[RequestT]
    response_model: type[ResponseT]
    handler: Callable[[OpContext, RequestT], ResponseT]
    cli_params: Sequence[click.Parameter] = ()
    from_cli: Callable[[OpContext, Mapping[str, Any]], RequestT | Mapping[str, Any]] | None = None
    render_text: Callable[[ResponseT], str] | None = None
    render_text_with_ids: Callable[[ResponseT, ShortIds], str] | None = None
    # The rendering of `--verbose`, for an operation whose usual text leaves out what is
    # mostly noise (a sync's zero counts); the command offers the flag only when it is set.
    render_text_verbose: Callable[[ResponseT], str] | None = None
    exit_code: Callable[[ResponseT], int] = lambda _response: 0
    accepts_request_file: bool = True
    # Combines a `--request FILE` document with the other flags (e.g. a bare
    # MemoryExtractionRequest plus `--limit`); without it the document is the request.
    from_request_file: Callable[[OpContext, Any, Mapping[str, Any]], Any] | None = None
    # A narrower request model for the MCP tool (its fields a subset of `request_model`'s, e.g.
    # a runner preview without approval fields); the spec then carries `one_sided_reason`.
    mcp_request_model: type[BaseModel] | None = None
    # What the tool is over MCP when that differs from the CLI command (a runner preview
    # never sends; promote asks by elicitation, not at a terminal).
    mcp_summary: str | None = None
    mcp_description: str | None = None
    # MCP tool annotation hints over the ones derived from `spec.side_effect`, e.g.
    # {"idempotentHint": True}.
    mcp_annotations: Mapping[str, bool] | None = None
    # The document model of each MCP tool of an operation with `spec.mcp_variants`, by the
    # variant's document `format`.
    mcp_variant_models: Mapping[str, type[BaseModel]] = field(default_factory=dict)

    def parse_request(self, raw: Any) -> RequestT:
        """Validate a request document (dict, JSON text or model) into the request model."""
        if isinstance(raw, self.request_model):
            return raw
        try:
            if isinstance(raw, str | bytes):
                return self.request_model.model_validate_json(raw)
            return self.request_model.model_validate(raw if raw is not None else {})
        except ValidationError as exc:
            raise request_invalid(exc, self.request_model) from exc

    def invoke(self, ctx: OpContext, raw_request: object) -> ResponseT:
        """Validate the request and run the handler."""
        return self.handler(ctx, self.parse_request(raw_request))


def request_invalid(exc: Exception, model: Any = None) -> GitMemoryError:
    """A pydantic ValidationError as a `GM_REQUEST_INVALID` usage error (exit 2) naming the
    failing fields in plain words.

    The hint names the command that prints the request's JSON Schema (`model`'s, when known).
    """
    errors: list[dict[str, Any]] = []
    for item in getattr(exc, "errors", lambda: [])()[:20]:
        location = ".".join(str(part) for part in item.get("loc", ()))
        errors.append({"field": location, "problem": _plain(item)})
    first = errors[0] if errors else {"field": "", "problem": str(exc)}
    return UsageError(
        "GM_REQUEST_INVALID",
        f"invalid request: {first['field'] or 'document'}: {first['problem']}",
        hint=_schema_hint(model),
        details={"errors": errors},
    )


def _plain(item: Mapping[str, Any]) -> str:
    """One validation problem in words a person reads (pydantic's own for the rest)."""
    kind = str(item.get("type", ""))
    pattern = str((item.get("ctx") or {}).get("pattern", ""))
    if kind == "string_pattern_mismatch" and "{64}" in pattern:
        return "must be a digest: 64 lowercase hex characters, as the command printed it"
    if kind == "string_pattern_mismatch":
        return "does not have the expected form"
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        return "is not a field of this request"
    return str(item.get("msg", ""))


def _schema_hint(model: Any) -> str:
    field = getattr(model, "model_fields", {}).get("format")
    name = getattr(field, "default", None)
    if isinstance(name, str) and name.startswith("git-memory-"):
        return f"check the request against its JSON Schema: git memory schema {name}"
    return "check the request against its JSON Schema (git memory schema lists them)"


def load_operation(name: str) -> Operation[Any, Any]:
    """Import the module of operation `name` and return its bound `OPERATION`."""
    return load_declared(spec(name))


def run(name: str, request: object = None, *, repository: Path | str | None = None) -> Any:
    """Run operation `name` with a request model (or a dict validated into one)."""
    return load_operation(name).invoke(OpContext(repository=repository), request)


def load_declared(declaration: OperationSpec) -> Operation[Any, Any]:
    """Import the module a declaration names (also one outside the registry: tests serve
    operations of their own) and return its `OPERATION`, which must be bound to it."""
    module = importlib.import_module(declaration.module)
    operation: Operation[Any, Any] = module.OPERATION
    if operation.spec is not declaration:
        raise RuntimeError(f"{declaration.module}.OPERATION is bound to another declaration")
    return operation


# A request document larger than this is refused before it is parsed.
MAX_REQUEST_BYTES = 32 * 1024 * 1024


def read_request_document(source: str) -> Any:
    """Read `--request FILE|-` as JSON (stdin for `-`): a regular file or stdin of at most
    32 MiB, parsed under the caps of `formats.bounded_json` (depth, number length)."""
    try:
        data = _read_capped(sys.stdin.buffer if source == "-" else None, source)
    except OSError as exc:
        raise GitMemoryError(
            "GM_REQUEST_UNREADABLE", f"cannot read request {source!r}: {exc.strerror}"
        ) from exc
    try:
        return bounded_json.loads(data, max_bytes=MAX_REQUEST_BYTES)
    except json.JSONDecodeError as exc:
        raise GitMemoryError(
            "GM_REQUEST_INVALID",
            f"request is not JSON: line {exc.lineno} column {exc.colno}: {exc.msg}",
        ) from exc
    except ValueError as exc:  # bounded_json.JsonRefused, UnicodeDecodeError
        raise GitMemoryError("GM_REQUEST_INVALID", f"request refused: {exc}") from exc


def _read_capped(stream: Any, source: str) -> bytes:
    """At most `MAX_REQUEST_BYTES` (+1, to tell a larger one) of stdin or of a regular file;
    a FIFO, device or directory is refused without blocking on it."""
    if stream is not None:
        data: bytes = stream.read(MAX_REQUEST_BYTES + 1)
    else:
        fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise GitMemoryError(
                "GM_REQUEST_UNREADABLE",
                f"cannot read request {source!r}: not a regular file",
                hint="write the request to a file, or pass it on stdin with --request -",
            )
        with os.fdopen(fd, "rb") as handle:
            data = handle.read(MAX_REQUEST_BYTES + 1)
    if len(data) > MAX_REQUEST_BYTES:
        raise GitMemoryError(
            "GM_REQUEST_TOO_LARGE",
            f"request {source!r} is larger than {MAX_REQUEST_BYTES} bytes",
        )
    return data


def handler_doc(operation: Operation[Any, Any]) -> str:
    """The operation's help text: its handler's docstring (also the MCP tool description)."""
    return inspect.getdoc(operation.handler) or operation.spec.summary
