"""Materialize patch content: normalize, replace any model-written heat, re-emit canonically.

Normalization (BOM refused, CRLF → LF, bare CR refused, trailing blanks stripped) happens
before any count or digest; budgets count code points of the normalized text. A scene's
`heat:` lines inside META are dropped (more than one is an error) and the host heat is put in,
then the scene is parsed and written back in canonical META form.
"""

from __future__ import annotations

import unicodedata

from git_memory.errors import FormatError, GitMemoryError
from git_memory.formats.doctrine import parse_doctrine, serialize_doctrine
from git_memory.formats.normalize import normalize_text
from git_memory.formats.scene import META_END, META_START, parse_scene, serialize_scene


def content_error(
    rule: str, message: str, operation_id: str | None = None, **extra: str
) -> GitMemoryError:
    """A patch rejected by one rule (`GM_PATCH_INVALID`, `details.rule` names it)."""
    details: dict[str, str] = {"rule": rule, **extra}
    if operation_id:
        details["operationId"] = operation_id
    return GitMemoryError(
        "GM_PATCH_INVALID",
        message if operation_id is None else f"operation {operation_id!r}: {message}",
        hint="fix the operation and stage the whole patch again; nothing was recorded",
        details=details,
    )


def check_stored_form(path: str, content: str) -> None:
    """Content as it is stored (canonical JSON keeps strings NFC, which can lengthen a text)
    must still pass its format and budgets; else `GM_PATCH_INVALID` (content-format)."""
    try:
        stored = unicodedata.normalize("NFC", content)
        if path == "doctrine.md":
            parse_doctrine(stored)
        else:
            parse_scene(stored)
    except FormatError as exc:
        raise content_error(
            "content-format", f"{path}: {exc.message}", None, formatCode=exc.code
        ) from exc


def _format_rejected(exc: FormatError, what: str, operation_id: str) -> GitMemoryError:
    line = f" (line {exc.line})" if exc.line else ""
    return content_error(
        "content-format", f"{what}{line}: {exc.message}", operation_id, formatCode=exc.code
    )


def normalize_content(text: str, operation_id: str) -> str:
    """The normalized text, or `GM_PATCH_INVALID` (rule `content-format`)."""
    try:
        return normalize_text(text)
    except FormatError as exc:
        raise _format_rejected(exc, "content", operation_id) from exc


def _without_heat(normalized: str, operation_id: str) -> list[str]:
    lines = normalized.split("\n")
    if lines[0] != META_START or META_END not in lines[1:]:
        raise content_error(
            "scene-meta", "scene content must start with a META block", operation_id
        )
    end = lines.index(META_END, 1)
    meta = [line for line in lines[1:end] if not line.startswith("heat:")]
    if end - 1 - len(meta) > 1:
        raise content_error("scene-heat", "scene META has more than one heat line", operation_id)
    return [META_START, *meta, META_END, *lines[end + 1 :]]


def materialize_scene(normalized: str, heat: int, operation_id: str) -> str:
    """Scene text in canonical META form with the host `heat` (limits checked by the format)."""
    lines = _without_heat(normalized, operation_id)
    end = lines.index(META_END, 1)
    with_heat = "\n".join([*lines[:end], f"heat: {heat}", *lines[end:]])
    try:
        scene = parse_scene(with_heat)
    except FormatError as exc:
        raise _format_rejected(exc, "scene", operation_id) from exc
    return serialize_scene(scene)


def materialize_doctrine(normalized: str, operation_id: str) -> str:
    """Doctrine text, validated (non-empty, ≤ 1200 code points) and in canonical form."""
    try:
        return serialize_doctrine(parse_doctrine(normalized))
    except FormatError as exc:
        raise _format_rejected(exc, "doctrine", operation_id) from exc
