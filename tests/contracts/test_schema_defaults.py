"""No schema states `"default": null` for a property whose type refuses null."""

from __future__ import annotations

import json
from typing import Any

from git_memory.contracts.base import document_schema
from git_memory.contracts.catalog import contract_models, schema_document
from git_memory.contracts.extraction import CandidateDraftBatch


def _contradictions(node: Any, path: str = "") -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        if "default" in node and node["default"] is None:
            kinds = node.get("type")
            branches = node.get("anyOf") or node.get("oneOf") or []
            admits = kinds == "null" or (isinstance(kinds, list) and "null" in kinds)
            admits = admits or any(b.get("type") == "null" for b in branches)
            if not admits and (kinds is not None or "$ref" in node):
                found.append(path)
        for key, value in node.items():
            found += _contradictions(value, f"{path}/{key}")
    elif isinstance(node, list):
        for number, value in enumerate(node):
            found += _contradictions(value, f"{path}/{number}")
    return found


def test_quotes_are_an_array_without_a_null_default() -> None:
    schema = document_schema(CandidateDraftBatch)
    quotes = schema["$defs"]["DraftStatement"]["properties"]["quotes"]
    assert quotes["type"] == "array"
    assert "default" not in quotes


def test_no_contract_schema_contradicts_its_default() -> None:
    problems = {
        model.__name__: _contradictions(json.loads(schema_document(model)))
        for model in contract_models()
    }
    assert {name: paths for name, paths in problems.items() if paths} == {}
