"""`git memory schema [NAME]`: the JSON Schemas of the contracts, shipped with the package.

Without NAME it lists every schema by its format name; with NAME it prints that schema.
`python -m git_memory.contracts.catalog` regenerates the files from the models.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

import click

from git_memory.contracts.base import Model
from git_memory.contracts.catalog import SCHEMA_DIRECTORY, SCHEMA_SUFFIX
from git_memory.errors import GitMemoryError
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec


class SchemaRequest(Model):
    """Which schema to print; none lists them all."""

    format: Literal["git-memory-schema-request@v1"] = "git-memory-schema-request@v1"
    name: str | None = None


class SchemaResponse(Model):
    """Every schema's format name, and the requested schema's document."""

    format: Literal["git-memory-schema@v1"] = "git-memory-schema@v1"
    names: list[str]
    name: str | None = None
    document: dict[str, Any] | None = None


def shipped_schemas() -> dict[str, str]:
    """Format name (`git-memory-lint@v1`) -> schema file name, for every shipped schema."""
    found = {}
    for path in sorted(SCHEMA_DIRECTORY.glob("*" + SCHEMA_SUFFIX)):
        stem = path.name.removesuffix(SCHEMA_SUFFIX)
        base, _, version = stem.rpartition(".")
        found[f"{base}@{version}"] = path.name
    return found


def _lookup(given: str, schemas: Mapping[str, str]) -> str:
    """The format name NAME means: a format name, or it without `git-memory-`/`@v1`."""
    text = given.strip()
    candidates = [text, f"{text}@v1", f"git-memory-{text}", f"git-memory-{text}@v1"]
    for candidate in candidates:
        if candidate in schemas:
            return candidate
    raise GitMemoryError(
        "GM_SCHEMA_NOT_FOUND",
        f"no JSON Schema named {given!r}",
        hint="`git memory schema` lists the names",
    )


def schema(ctx: OpContext, request: SchemaRequest) -> SchemaResponse:
    """List the shipped JSON Schemas, or return the one NAME names."""
    schemas = shipped_schemas()
    if request.name is None:
        return SchemaResponse(names=list(schemas))
    name = _lookup(request.name, schemas)
    document = json.loads((SCHEMA_DIRECTORY / schemas[name]).read_text(encoding="utf-8"))
    return SchemaResponse(names=list(schemas), name=name, document=document)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> SchemaRequest:
    return SchemaRequest(name=values["name"])


def _render(response: SchemaResponse) -> str:
    if response.document is None:
        return "\n".join(response.names)
    return json.dumps(response.document, indent=2, sort_keys=True, ensure_ascii=False)


OPERATION = Operation(
    spec=spec("schema"),
    request_model=SchemaRequest,
    response_model=SchemaResponse,
    handler=schema,
    cli_params=[click.Argument(["name"], required=False, metavar="[NAME]")],
    from_cli=_from_cli,
    render_text=_render,
    accepts_request_file=False,
)
