"""`git memory schema [--check] [--directory DIR]`: generated JSON Schemas of the contracts."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import click

from git_memory.contracts.base import Model
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec


class SchemaRequest(Model):
    """Where the schema files live and whether to only check them."""

    format: Literal["git-memory-schema-request@v1"] = "git-memory-schema-request@v1"
    directory: str = "schema"
    check: bool = False


class SchemaResponse(Model):
    """Files that were (or, with --check, would be) written or removed."""

    format: Literal["git-memory-schema@v1"] = "git-memory-schema@v1"
    directory: str
    check: bool
    changed: list[str]
    stale: list[str]


def schema(ctx: OpContext, request: SchemaRequest) -> SchemaResponse:
    """Generate one JSON Schema file per contract; with --check, only report drift.

    Exits 1 with --check when any file differs from the models or is not a contract's.
    """
    from git_memory.contracts.catalog import contract_models, schema_document, schema_filename

    directory = Path(request.directory)
    expected = {schema_filename(m): schema_document(m) for m in contract_models()}
    changed = sorted(
        name
        for name, text in expected.items()
        if not (directory / name).is_file() or (directory / name).read_text() != text
    )
    present = {p.name for p in directory.glob("*.schema.json")} if directory.is_dir() else set()
    stale = sorted(present - set(expected))
    if not request.check:
        directory.mkdir(parents=True, exist_ok=True)
        for name in changed:
            (directory / name).write_text(expected[name], encoding="utf-8")
        for name in stale:
            (directory / name).unlink()
    return SchemaResponse(
        directory=request.directory, check=request.check, changed=changed, stale=stale
    )


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> SchemaRequest:
    return SchemaRequest(directory=values["directory"], check=values["check"])


def _render(response: SchemaResponse) -> str:
    verb = "differs" if response.check else "written"
    lines = [f"{response.directory}/{name}: {verb}" for name in response.changed]
    lines += [
        f"{response.directory}/{name}: stale" + ("" if response.check else " (removed)")
        for name in response.stale
    ]
    return "\n".join(lines) or f"{response.directory}/ is current"


OPERATION = Operation(
    spec=spec("schema"),
    request_model=SchemaRequest,
    response_model=SchemaResponse,
    handler=schema,
    cli_params=[
        click.Option(["--check"], is_flag=True, help="Change nothing; exit 1 on drift."),
        click.Option(
            ["--directory"],
            default="schema",
            show_default=True,
            help="Directory of the schema files.",
        ),
    ],
    from_cli=_from_cli,
    render_text=_render,
    exit_code=lambda response: 1 if response.check and (response.changed or response.stale) else 0,
    accepts_request_file=False,
)
