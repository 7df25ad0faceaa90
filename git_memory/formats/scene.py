"""Scene files `scenes/<name>.md`: a META block then Markdown (docs/formats.md)."""

from __future__ import annotations

from dataclasses import dataclass

from git_memory.errors import FormatError
from git_memory.formats.entry import is_calendar_date
from git_memory.formats.frontmatter import META_DIALECT, Field, dump_json, parse_lines
from git_memory.formats.frontmatter import render_string as _bare_or_json
from git_memory.formats.normalize import code_points, normalize_text

META_START = "-----META-START-----"
META_END = "-----META-END-----"
META_FIELDS = ("created", "updated", "summary", "heat")
MAX_SUMMARY = 40
MAX_SCENE_BODY = 1500
MAX_HEAT = 2_147_483_647


@dataclass(frozen=True)
class Scene:
    """One L2 scene. `body` is everything after the META block (normalized)."""

    created: str
    updated: str
    summary: str
    heat: int
    body: str


def parse_scene(text: str) -> Scene:
    """Normalize and parse a scene file (`GM_FORMAT_META_*`, `GM_FORMAT_SCENE_BODY_TOO_LONG`)."""
    lines = normalize_text(text).split("\n")
    if lines[0] != META_START:
        raise FormatError("GM_FORMAT_MISSING_META", f"first line must be {META_START}", line=1)
    try:
        end = lines.index(META_END, 1)
    except ValueError:
        raise FormatError(
            "GM_FORMAT_UNTERMINATED_META", f"no {META_END} line after the META block", line=1
        ) from None
    fields = {f.key: f for f in parse_lines(lines[1:end], 2, META_DIALECT)}
    for item in fields.values():
        if item.key not in META_FIELDS:
            raise FormatError(
                "GM_FORMAT_META_UNKNOWN_FIELD", f"unknown META field {item.key!r}", line=item.line
            )
    for name in META_FIELDS:
        if name not in fields:
            raise FormatError(
                "GM_FORMAT_META_MISSING_FIELD", f"missing META field {name!r}", line=1
            )
    body = "\n".join(lines[end + 1 :])
    if code_points(body) > MAX_SCENE_BODY:
        raise FormatError(
            "GM_FORMAT_SCENE_BODY_TOO_LONG",
            f"scene body has {code_points(body)} code points (limit {MAX_SCENE_BODY})",
            line=end + 2,
        )
    return Scene(
        created=_date(fields["created"]),
        updated=_date(fields["updated"]),
        summary=_summary(fields["summary"]),
        heat=_heat(fields["heat"]),
        body=body,
    )


def _invalid(item: Field, why: str) -> FormatError:
    return FormatError("GM_FORMAT_META_INVALID_FIELD", f"{item.key}: {why}", line=item.line)


def _date(item: Field) -> str:
    if not isinstance(item.value, str) or not is_calendar_date(item.value):
        raise _invalid(item, "must be a calendar date YYYY-MM-DD")
    return item.value


def _summary(item: Field) -> str:
    value = item.value
    if not isinstance(value, str) or value.strip() == "" or code_points(value) > MAX_SUMMARY:
        raise _invalid(item, f"must be a non-empty string of at most {MAX_SUMMARY} code points")
    return value


def _heat(item: Field) -> int:
    value = item.value
    integral = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if isinstance(value, bool) or not integral or not 1 <= value <= MAX_HEAT:
        raise _invalid(item, "must be an integer of at least 1")
    return int(value)


def serialize_scene(scene: Scene) -> str:
    """The canonical (host) form: dates bare, summary JSON-quoted, heat, then the body."""
    header = [
        META_START,
        f"created: {_bare_or_json(scene.created)}",
        f"updated: {_bare_or_json(scene.updated)}",
        f"summary: {dump_json(scene.summary)}",
        f"heat: {scene.heat}",
        META_END,
    ]
    return "\n".join([*header, scene.body])
