"""Compact tool input schemas: what a model needs to call a tool, in a few hundred bytes.

Agent clients put every tool's input schema into every conversation, and they refuse or empty
schemas they cannot translate (a union at the top, `$ref`s into `$defs`). A tool therefore
shows its request model flattened: references inlined, titles dropped, each description cut
to its first sentence, optional-null unions reduced to their one real type, and objects deeper
than a few levels left as `{"type": "object"}`. The server validates the whole request model
anyway; the full JSON Schema of a document an agent writes travels in the task that asks for
it (`contract.documentSchema`), see docs/guide-agent.md.
"""

from __future__ import annotations

from typing import Any

# Levels of nested objects shown with their properties; deeper objects are bare objects.
MAX_DEPTH = 2
MAX_DESCRIPTION = 160
# Keywords a model uses to fill a value; bounds and patterns are the server's to check.
_KEPT = ("type", "enum", "const")


def compact_schema(schema: dict[str, Any], *, depth: int = MAX_DEPTH) -> dict[str, Any]:
    """The request schema as a tool input schema (`type: object` at the top, no unions)."""
    shown = _compact(schema, schema.get("$defs", {}), depth)
    # The tool's description says what the request is for.
    shown.pop("description", None)
    if shown.get("type") != "object":
        shown = {"type": "object", **{k: v for k, v in shown.items() if k != "type"}}
    shown.setdefault("properties", {})
    return shown


def first_sentence(text: str, limit: int = MAX_DESCRIPTION) -> str:
    """The first sentence (or paragraph line) of a description, at most `limit` characters."""
    paragraph = " ".join(text.strip().split("\n\n")[0].split())
    end = paragraph.find(". ")
    sentence = paragraph if end < 0 else paragraph[: end + 1]
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"


def _compact(node: dict[str, Any], defs: dict[str, Any], depth: int) -> dict[str, Any]:
    node = _resolve(node, defs)
    union = node.get("anyOf") or node.get("oneOf")
    if union is not None:
        return _union(node, union, defs, depth)
    shown: dict[str, Any] = {key: node[key] for key in _KEPT if key in node}
    if "const" in shown and "type" not in shown and isinstance(shown["const"], str):
        shown["type"] = "string"
    if "description" in node:
        shown["description"] = first_sentence(node["description"])
    if node.get("type") == "array" and isinstance(node.get("items"), dict):
        shown["items"] = _compact(node["items"], defs, depth)
    if node.get("type") == "object" or "properties" in node:
        shown["type"] = "object"
        if depth > 0 and "properties" in node:
            shown["properties"] = {
                name: _compact(value, defs, depth - 1) for name, value in node["properties"].items()
            }
            if node.get("required"):
                shown["required"] = list(node["required"])
    return shown


def _union(
    node: dict[str, Any], branches: list[dict[str, Any]], defs: dict[str, Any], depth: int
) -> dict[str, Any]:
    real = [branch for branch in branches if branch.get("type") != "null"]
    if len(real) == 1:
        shown = _compact(real[0], defs, depth)
    else:
        # A choice of documents (told apart by a field) is described, not spelled out.
        shown = {"type": "object"} if all(_is_object(b, defs) for b in real) else {}
    if "description" in node:
        shown["description"] = first_sentence(node["description"])
    return shown


def _is_object(node: dict[str, Any], defs: dict[str, Any]) -> bool:
    node = _resolve(node, defs)
    return node.get("type") == "object" or "properties" in node


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    reference = node.get("$ref")
    if not isinstance(reference, str) or not reference.startswith("#/$defs/"):
        return node
    target = dict(defs.get(reference.removeprefix("#/$defs/"), {}))
    # A description beside the reference is about this use; it wins over the class's.
    target.update({key: value for key, value in node.items() if key != "$ref"})
    return _resolve(target, defs)
