"""`skills/<name>/SKILL.md`: provider-neutral skill source (docs/formats.md).

Beyond the original writer (which keeps only name and description), the optional keys
`allowed-tools`, `license` and `metadata` are kept, JSON-encoded, so `fmt` loses nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from git_memory.errors import FormatError
from git_memory.formats.frontmatter import dump_json, js_trim, parse_json
from git_memory.formats.slug import is_name

SKILL_SHAPE = re.compile(r"---\n([\s\S]*?)\n---\n?([\s\S]*)")
SKILL_LINE = re.compile(r"([a-z][a-z-]*): (.+)")
SKILL_KEYS = ("name", "description", "allowed-tools", "license", "metadata")
MAX_DESCRIPTION = 1024
MAX_BODY_BYTES = 65536


@dataclass(frozen=True)
class Skill:
    """A skill: name, description, optional keys as (key, canonical JSON text), and body."""

    name: str
    description: str
    body: str
    extra: tuple[tuple[str, str], ...] = ()


def parse_skill(text: str) -> Skill:
    """Parse a SKILL.md (`GM_FORMAT_SKILL_*`); a missing final newline is added to the body."""
    if text.startswith("\ufeff"):
        raise FormatError("GM_FORMAT_BOM_NOT_ALLOWED", "file starts with a BOM", line=1)
    if "\r" in text:
        raise FormatError("GM_FORMAT_CRLF_NOT_ALLOWED", "carriage return in SKILL.md", line=1)
    shape = SKILL_SHAPE.fullmatch(text)
    if shape is None:
        raise FormatError(
            "GM_FORMAT_SKILL_INVALID", "SKILL.md must start with a '---' frontmatter", line=1
        )
    values = _frontmatter(shape.group(1).split("\n"))
    name, description = values.pop("name", None), values.pop("description", None)
    if not isinstance(name, str) or not is_name(name):
        raise FormatError(
            "GM_FORMAT_SKILL_NAME_INVALID", "name must be a lowercase slug of 1–64 chars", line=2
        )
    _check_description(description)
    body = _body(shape.group(2))
    extra = tuple((key, dump_json(values[key])) for key in SKILL_KEYS if key in values)
    return Skill(name=name, description=str(description), body=body, extra=extra)


def _frontmatter(lines: list[str]) -> dict[str, object]:
    values: dict[str, object] = {}
    for number, line in enumerate(lines, start=2):
        match = SKILL_LINE.fullmatch(line)
        value = js_trim(match.group(2)) if match else ""
        if match is None or value == "":
            raise FormatError("GM_FORMAT_INVALID_LINE", "expected `key: value`", line=number)
        key = match.group(1)
        if key not in SKILL_KEYS:
            raise FormatError("GM_FORMAT_UNKNOWN_FIELD", f"unknown key {key!r}", line=number)
        if key in values:
            raise FormatError("GM_FORMAT_DUPLICATE_KEY", f"duplicate key {key!r}", line=number)
        if value[:1] in ('"', "[", "{") or value in ("true", "false", "null"):
            values[key] = parse_json(value, number)
        elif "#" in value:
            raise FormatError(
                "GM_FORMAT_COMMENT_NOT_ALLOWED", "a bare value may not contain '#'", line=number
            )
        else:
            values[key] = value
    return values


def _check_description(description: object) -> None:
    if (
        not isinstance(description, str)
        or description == ""
        or len(description) > MAX_DESCRIPTION
        or any(ch in description for ch in "<>\r\n")
        or js_trim(description) != description
    ):
        raise FormatError(
            "GM_FORMAT_SKILL_DESCRIPTION_INVALID",
            f"description must be 1–{MAX_DESCRIPTION} trimmed chars without < > or newlines",
            line=3,
        )


def _body(body: str) -> str:
    if body == "":
        raise FormatError("GM_FORMAT_SKILL_BODY_EMPTY", "SKILL.md has no body", line=1)
    if not body.endswith("\n"):
        body += "\n"
    if len(body.encode("utf-8", "surrogatepass")) > MAX_BODY_BYTES:
        raise FormatError(
            "GM_FORMAT_SKILL_BODY_TOO_LARGE", f"body exceeds {MAX_BODY_BYTES} bytes", line=1
        )
    return body


def serialize_skill(skill: Skill) -> str:
    """`---\\nname: <JSON>\\ndescription: <JSON>\\n` + optional keys + `---\\n` + body."""
    lines = [f"name: {dump_json(skill.name)}", f"description: {dump_json(skill.description)}"]
    lines += [f"{key}: {value}" for key, value in skill.extra]
    return "---\n" + "\n".join(lines) + "\n---\n" + skill.body
