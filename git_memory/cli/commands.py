"""Generate a click command from an operation: common options, request building, rendering."""

from __future__ import annotations

import sys
from typing import Any

import click
from pydantic import ValidationError

from git_memory import output
from git_memory.formats.controls import escape_controls, escape_json_controls
from git_memory.ops.base import (
    OpContext,
    Operation,
    handler_doc,
    load_declared,
    read_request_document,
    request_invalid,
)
from git_memory.ops.registry import OperationSpec
from git_memory.ops.short_ids import ShortIds

FORMAT_OPTION_HELP = "Output format: text for people, json for scripts and agents."


def common_params(with_request: bool) -> list[click.Parameter]:
    """Options every data command takes."""
    params: list[click.Parameter] = [
        click.Option(
            ["--format", "output_format"],
            type=click.Choice(["text", "json"]),
            default="text",
            show_default=True,
            help=FORMAT_OPTION_HELP,
        ),
        click.Option(
            ["--repository", "-C", "repository"],
            type=click.Path(file_okay=False),
            default=None,
            help="Run as if started in PATH (default: current directory).",
        ),
    ]
    if with_request:
        params.append(
            click.Option(
                ["--request", "request_file"],
                metavar="FILE|-",
                default=None,
                help="Read the request document from FILE or - for standard input.",
            )
        )
    return params


def build_command(declaration: OperationSpec) -> click.Command:
    """The click command of one operation."""
    operation = load_declared(declaration)
    # An operation may replace a common option (lint's --format adds sarif).
    own = {param.name for param in operation.cli_params}
    common = common_params(operation.accepts_request_file)
    params = [*operation.cli_params, *(param for param in common if param.name not in own)]
    if operation.render_text_verbose is not None:
        params.append(
            click.Option(["--verbose", "-v"], is_flag=True, help="Print every count, zeros too.")
        )

    def callback(**values: Any) -> int:
        fmt = values.get("output_format", "text")
        if fmt == "json":
            output.enable_json_errors()
        repository = values.get("repository")
        at_terminal = (
            fmt == "text"
            and output.is_tty(err=False)
            and sys.stdin is not None
            and sys.stdin.isatty()
        )
        ctx = OpContext.at_terminal(repository) if at_terminal else OpContext(repository=repository)
        ctx.output_format = fmt
        request_file = values.get("request_file")
        if request_file is not None:
            raw: Any = read_request_document(request_file)
            if operation.from_request_file is not None:
                raw = operation.from_request_file(ctx, raw, values)
        elif operation.from_cli is not None:
            raw = _built_from_flags(operation, ctx, values)
        else:
            raw = None
        response = operation.invoke(ctx, raw)
        verbose = operation.render_text_verbose if values.get("verbose") else None
        render(verbose or _text_renderer(operation, ctx), response, fmt)
        return operation.exit_code(response)

    return click.Command(
        name=declaration.cli_path[-1],
        params=params,
        callback=callback,
        help=handler_doc(operation),
        short_help=declaration.summary,
        context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    )


def _built_from_flags(operation: Operation[Any, Any], ctx: OpContext, values: Any) -> Any:
    """The request from the flags; a model that refuses them is a request error, like a
    `--request` document's would be (never an internal error)."""
    assert operation.from_cli is not None  # the caller checked
    try:
        return operation.from_cli(ctx, values)
    except ValidationError as exc:
        raise request_invalid(exc, operation.request_model) from exc


def _text_renderer(operation: Any, ctx: OpContext) -> Any:
    """The operation's text rendering; one that prints ids abbreviates them against this
    worktree's ids of each kind."""
    if operation.render_text_with_ids is None:
        return operation.render_text

    def render_text(response: Any) -> str:
        text: str = operation.render_text_with_ids(response, ShortIds(ctx.worktree))
        return text

    return render_text


def render(render_text: Any, response: Any, fmt: str) -> None:
    """Print a response as JSON or through the operation's text renderer."""
    if fmt == "json" or render_text is None:
        output.echo_json(response.to_json(), escape_json_controls)
        return
    text = render_text(response)
    if text:
        # Text shows transcript and memory content; a control character in it could hide or
        # rewrite what the terminal displays, so every one is printed as a visible escape.
        output.echo(escape_controls(text))
