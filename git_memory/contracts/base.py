"""Shared pieces of every contract: the strict frozen base model and common field types."""

from __future__ import annotations

import importlib
import json
import re
from datetime import UTC, datetime
from functools import cache
from typing import Annotated, Any, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints
from pydantic.config import ExtraValues

from git_memory.contracts.canonical import digest

FORMAT_PREFIX = "git-memory-"

Hex64 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
Hex40 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}$")]
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=64)]
EntryId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=64)]
EvidenceId = Annotated[str, StringConstraints(pattern=r"^ev-[0-9]+-[0-9a-f]{12}$")]
DecimalString = Annotated[str, StringConstraints(pattern=r"^(0|[1-9][0-9]*)$")]
Priority = Annotated[int, Field(ge=0, le=100)]

_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


def format_timestamp(moment: datetime) -> str:
    """The canonical UTC timestamp `YYYY-MM-DDTHH:MM:SS.mmmZ`."""
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_timestamp(value: str) -> datetime:
    """Parse a canonical UTC timestamp; it must round-trip exactly."""
    if not _TIMESTAMP.match(value):
        raise ValueError(f"not a canonical UTC timestamp (YYYY-MM-DDTHH:MM:SS.mmmZ): {value!r}")
    moment = datetime.strptime(value, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    if format_timestamp(moment) != value:
        raise ValueError(f"timestamp does not round-trip: {value!r}")
    return moment


def _check_timestamp(value: str) -> str:
    parse_timestamp(value)
    return value


Timestamp = Annotated[str, AfterValidator(_check_timestamp)]


def contract_format(name: str) -> str:
    """`git-memory-<name>@v1`."""
    return f"{FORMAT_PREFIX}{name}@v1"


def wire_name(field_name: str) -> str:
    """The camelCase JSON name of a snake_case field: `task_id` -> `taskId`.

    Written out rather than taken from pydantic, whose `to_camel` changed between the
    versions this package supports; a name without underscores is returned unchanged.
    """
    head, *rest = field_name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


class WireNames(BaseModel):
    """Documents are read by their wire names only, so a snake_case key in a document is an
    unknown field, as the schemas say (docs/contracts.md); Python code builds models by field
    name."""

    @classmethod
    def model_validate(
        cls,
        obj: Any,
        *,
        strict: bool | None = None,
        extra: ExtraValues | None = None,
        from_attributes: bool | None = None,
        context: object | None = None,
        by_alias: bool | None = None,
        by_name: bool | None = None,
    ) -> Self:
        """Read a document by its wire names (unless the caller asks otherwise)."""
        return super().model_validate(
            obj,
            strict=strict,
            extra=extra,
            from_attributes=from_attributes,
            context=context,
            by_alias=True if by_alias is None else by_alias,
            by_name=False if by_name is None else by_name,
        )

    @classmethod
    def model_validate_json(
        cls,
        json_data: str | bytes | bytearray,
        *,
        strict: bool | None = None,
        extra: ExtraValues | None = None,
        context: object | None = None,
        by_alias: bool | None = None,
        by_name: bool | None = None,
    ) -> Self:
        """Read a JSON document by its wire names (unless the caller asks otherwise)."""
        return super().model_validate_json(
            json_data,
            strict=strict,
            extra=extra,
            context=context,
            by_alias=True if by_alias is None else by_alias,
            by_name=False if by_name is None else by_name,
        )


class Model(WireNames):
    """Strict, immutable base for every contract and every nested object in one.

    Fields are snake_case in Python and camelCase on the wire (docs/contracts.md): each
    field's alias is its `wire_name`, documents are read by alias only (`WireNames`; Python code
    passes field names) and written by alias, and validation errors name the wire field.
    """

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        validate_by_name=True,
        validate_by_alias=True,
        strict=False,
        alias_generator=wire_name,
    )

    def to_json(self) -> dict[str, Any]:
        """The JSON document of this model (aliases, no `None` dropping)."""
        return self.model_dump(mode="json", by_alias=True)

    def digest(self) -> str:
        """Canonical digest of the JSON document."""
        return digest(self.to_json())


def unique(values: list[Any]) -> list[Any]:
    """Validator body: the list has no repeated item."""
    if len(set(values)) != len(values):
        raise ValueError("items must be unique")
    return values


@cache
def document_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema of a document an agent writes, as the task asking for it carries it.

    Titles are dropped (they only repeat the field names); everything the host validates is
    kept, so a document that satisfies it is accepted first time.
    """
    schema: dict[str, Any] = _without_titles(without_null_defaults(model.model_json_schema()))
    return _binding_echoed(schema)


ECHOED_BINDING = {
    "type": "object",
    "description": "The task's `binding`, echoed exactly as the task gives it.",
}


def _binding_echoed(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with a top-level `binding` described as the echo it is, and the
    definitions only it used left out: a writer copies the task's binding, it never composes
    one, and spelling out its parts cost more than the rest of the document's schema."""
    properties = schema.get("properties") or {}
    if "binding" not in properties:
        return schema
    slim = {**schema, "properties": {**properties, "binding": ECHOED_BINDING}}
    definitions = slim.pop("$defs", {})
    used: dict[str, Any] = {}
    pending = [slim]
    while pending:
        text = json.dumps(pending.pop())
        for name, definition in definitions.items():
            if name not in used and f'"#/$defs/{name}"' in text:
                used[name] = definition
                pending.append(definition)
    return {**slim, "$defs": used} if used else slim


def _without_titles(node: Any) -> Any:
    if isinstance(node, dict):
        return {key: _without_titles(value) for key, value in node.items() if key != "title"}
    if isinstance(node, list):
        return [_without_titles(item) for item in node]
    return node


def without_null_defaults(node: Any) -> Any:
    """The schema without `"default": null` on properties whose type does not admit null.

    An optional field whose null is never written (`SkipJsonSchema[None]`, left out when
    unset) would otherwise be described as `{"type": "array", "default": null}`: a schema
    that contradicts itself, and a writer that copies the default sends a null the type
    refuses."""
    if isinstance(node, list):
        return [without_null_defaults(item) for item in node]
    if not isinstance(node, dict):
        return node
    return {
        key: without_null_defaults(value)
        for key, value in node.items()
        if not (key == "default" and value is None and not _admits_null(node))
    }


def _admits_null(node: dict[str, Any]) -> bool:
    if "type" in node:
        kinds = node["type"]
        return kinds == "null" or (isinstance(kinds, list) and "null" in kinds)
    branches = node.get("anyOf") or node.get("oneOf")
    if isinstance(branches, list):
        return any(isinstance(b, dict) and _admits_null(b) for b in branches)
    return "$ref" not in node and "enum" not in node and "const" not in node


def schema_of(name: str) -> Any:
    """A `default_factory` for a `documentSchema` field: the schema of contract class `name`.

    Resolved when a task is built, so a contract may name a model defined after it.
    """
    module, _, attribute = name.rpartition(".")

    def factory() -> dict[str, Any]:
        return document_schema(getattr(importlib.import_module(module), attribute))

    return factory


def added_optional(max_length: int, description: str) -> Any:
    """A string field added to a v1 contract: None by default and then left out of the
    document, so a document without it keeps its v1 bytes."""
    return Field(
        default=None,
        exclude_if=lambda value: value is None,
        max_length=max_length,
        description=description,
    )
