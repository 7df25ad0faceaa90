"""`index.json`: the generated navigation index (docs/formats.md).

Deterministic: items sorted, one item per line, so two branches that each add an entry merge
without conflict in most cases (and the merge driver rebuilds it when they do conflict).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence

from git_memory.errors import FormatError, GitMemoryError
from git_memory.formats import bounded_json
from git_memory.formats.entry import parse_entry
from git_memory.records import Record

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any

INDEX_FORMAT = "git-memory-index@v1"
INDEX_SECTIONS: tuple[tuple[str, str], ...] = (
    ("entries", "id"),
    ("scenes", "name"),
    ("skills", "name"),
)


def render_index(
    entries: Sequence[Mapping[str, Any]] = (),
    scenes: Sequence[Mapping[str, Any]] = (),
    skills: Sequence[Mapping[str, Any]] = (),
) -> bytes:
    """Serialize the index: sorted by id/name, one compact JSON object per line."""
    lines = ["{", f'  "format": {json.dumps(INDEX_FORMAT)},']
    sections = {"entries": entries, "scenes": scenes, "skills": skills}
    for position, (section, key) in enumerate(INDEX_SECTIONS):
        items = sorted(sections[section], key=lambda item, k=key: str(item[k]))  # type: ignore[misc]
        comma = "," if position < len(INDEX_SECTIONS) - 1 else ""
        if not items:
            lines.append(f'  "{section}": []{comma}')
            continue
        lines.append(f'  "{section}": [')
        for number, item in enumerate(items):
            text = json.dumps(dict(item), ensure_ascii=False, separators=(", ", ": "))
            lines.append(f"    {text}{',' if number < len(items) - 1 else ''}")
        lines.append(f"  ]{comma}")
    lines.append("}")
    return ("\n".join(lines) + "\n").encode("utf-8")


ORIGINAL_INDEX_FORMAT = "threadshare-memory-index@v1"
MAX_SUMMARY = 120
# index.json is generated: a few hundred bytes per item, nested a few levels.
MAX_INDEX_BYTES = 64 * 1024 * 1024
SUMMARY_MARKERS = "#>-*+ \t"


class MemoryIndex(Record):
    """A parsed index.json: the items of each section, as JSON objects.

    A named tuple, as `IndexBuild`: the pre-commit hook checks the index, and `dataclasses`
    (with `inspect`) is a measured cost of its start-up (docs/performance.md).
    """

    format: str
    entries: tuple[dict[str, Any], ...] = ()
    scenes: tuple[dict[str, Any], ...] = ()
    skills: tuple[dict[str, Any], ...] = ()


def parse_index(text: str | bytes) -> MemoryIndex:
    """Parse index.json (ours, or the original tool's placeholder) or `GM_FORMAT_INDEX_INVALID`."""
    try:
        document = bounded_json.loads(
            text, max_bytes=MAX_INDEX_BYTES, parse_constant=_refuse_constant
        )
    except ValueError as exc:
        raise _index_invalid(f"index.json is not JSON: {exc}") from exc
    if not isinstance(document, dict):
        raise _index_invalid("index.json must be a JSON object")
    fmt = document.get("format")
    if fmt not in (INDEX_FORMAT, ORIGINAL_INDEX_FORMAT):
        raise _index_invalid(f"unknown index format {fmt!r}")
    sections: dict[str, tuple[dict[str, Any], ...]] = {}
    for section, key in INDEX_SECTIONS:
        items = document.get(section, [])
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise _index_invalid(f"index.json {section!r} must be an array of objects")
        for number, item in enumerate(items):
            if not isinstance(item.get(key), str) or not item[key]:
                raise _index_invalid(f"index.json {section}[{number}] has no string {key!r}")
        sections[section] = tuple(items)
    _refuse_lone_surrogates(document)  # the depth is capped when parsing
    return MemoryIndex(format=str(fmt), **sections)


def _refuse_constant(name: str) -> Any:
    # NaN and ±Infinity are not JSON; Python's parser accepts them unless told otherwise.
    raise ValueError(f"{name} is not a JSON number")


def _refuse_lone_surrogates(value: Any) -> None:
    """A `\\ud83d` escape with no partner decodes to text that cannot be written as UTF-8."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise _index_invalid("index.json holds a lone surrogate escape") from exc
    elif isinstance(value, dict):
        for key, item in value.items():
            _refuse_lone_surrogates(key)
            _refuse_lone_surrogates(item)
    elif isinstance(value, list):
        for item in value:
            _refuse_lone_surrogates(item)


def _index_invalid(message: str) -> FormatError:
    return FormatError("GM_FORMAT_INDEX_INVALID", message[:200], line=1)


def summarize(body: str) -> str:
    """A one-line summary of Markdown: its first non-blank line, markers dropped, ≤ 120."""
    for line in body.split("\n"):
        text = " ".join(line.strip().lstrip(SUMMARY_MARKERS).split())
        if text:
            return text if len(text) <= MAX_SUMMARY else text[: MAX_SUMMARY - 1] + "…"
    return ""


class IndexBuild(Record):
    """The regenerated index and the memory files that could not be parsed (skipped)."""

    data: bytes
    skipped: list[str]


def build_index(
    files: Mapping[str, str], text_allowed: Callable[[str], bool] = lambda _text: True
) -> IndexBuild:
    """Regenerate index.json from the memory files (relpath under the memory root → text).

    Only approved entries are listed; unparsable files are skipped and named in `skipped`
    (lint reports them); a summary or description `text_allowed` refuses is left empty
    (`lint.engine.passes_lint`). Deterministic: the same tree always gives the same bytes.
    """
    entries: list[dict[str, Any]] = []
    scenes: list[dict[str, Any]] = []
    skills: list[dict[str, Any]] = []
    skipped: list[str] = []
    for relpath in sorted(files):
        try:
            item = _index_item(relpath, files[relpath])
        except GitMemoryError:
            skipped.append(relpath)
            continue
        if item is not None:
            _drop_blocked_text(item[1], text_allowed)
            {"entries": entries, "scenes": scenes, "skills": skills}[item[0]].append(item[1])
    return IndexBuild(render_index(entries, scenes, skills), skipped)


def _drop_blocked_text(item: dict[str, Any], text_allowed: Callable[[str], bool]) -> None:
    """Empty a summary or description `text_allowed` refuses (the lint's verdict): the index
    is written by every promotion, from files that may have been committed past the hook, and
    copies no secret or hidden character out of them (the file itself still blocks in lint)."""
    for key in ("summary", "description"):
        value = item.get(key)
        if isinstance(value, str) and value and not text_allowed(value):
            item[key] = ""


def _index_item(relpath: str, text: str) -> tuple[str, dict[str, Any]] | None:
    parts = relpath.split("/")
    if len(parts) == 2 and parts[0] == "entries" and parts[1].endswith(".md"):
        entry = parse_entry(text)
        if entry.status != "approved" or entry.id != parts[1][:-3]:
            return None
        summary = summarize(entry.body)
        # A commit the entry declares as evidence is allowed in the entry, where the lint
        # knows it is evidence; the index names it by git's short form, so no bare 40-hex
        # token stands in index.json (the lint blocks those there as anywhere).
        for commit in entry.evidence.commits:
            summary = summary.replace(commit.hash, commit.hash[:7])
        return "entries", {
            "id": entry.id,
            "type": entry.type,
            "scene": entry.scene,
            "priority": entry.priority,
            "summary": summary,
        }
    if len(parts) == 2 and parts[0] == "scenes" and parts[1].endswith(".md"):
        # Start-up seam (docs/architecture.md): the hook parses the kinds it finds staged.
        from git_memory.formats.scene import parse_scene  # noqa: PLC0415

        scene = parse_scene(text)
        return "scenes", {"name": parts[1][:-3], "heat": scene.heat, "summary": scene.summary}
    if len(parts) == 3 and parts[0] == "skills" and parts[2] == "SKILL.md":
        # Start-up seam (docs/architecture.md): the hook parses the kinds it finds staged.
        from git_memory.formats.skill_md import parse_skill  # noqa: PLC0415

        skill = parse_skill(text)
        if skill.name != parts[1]:
            return None
        return "skills", {"name": skill.name, "description": skill.description}
    return None
