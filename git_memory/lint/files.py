"""Format checks by file kind, as lint findings, plus the spans exempt from token rules."""

from __future__ import annotations

import re
from collections.abc import Callable

from git_memory.errors import FormatError
from git_memory.formats.entry import entry_frontmatter_span, is_slug
from git_memory.formats.index_json import parse_index
from git_memory.formats.memory_file import (
    DOCTRINE_PATH,
    ENTRY_PATH,
    SCENE_PATH,
    SKILL_PATH,
    load_doctrine,
    load_entry,
    load_scene,
    load_skill,
)
from git_memory.lint.findings import Finding, Span, format_finding

INDEX_PATH = "index.json"

Checker = Callable[[str, str], list[Span]]


def check_format(relpath: str, text: str) -> tuple[list[Finding], list[Span]]:
    """(format findings, allowed spans) of `text` as the file kind `relpath` names."""
    checker = _checker(relpath)
    if checker is None:
        return [], []
    try:
        return [], checker(relpath, text)
    except FormatError as exc:
        return [format_finding(exc.code, exc.message, exc.line, exc.column)], []


def _checker(relpath: str) -> Checker | None:
    if ENTRY_PATH.fullmatch(relpath):
        return _entry
    if SCENE_PATH.fullmatch(relpath):
        return _scene
    if SKILL_PATH.fullmatch(relpath):
        return _skill
    if relpath == DOCTRINE_PATH:
        return _doctrine
    if relpath == INDEX_PATH:
        return _index
    return None


def _entry(relpath: str, text: str) -> list[Span]:
    entry = load_entry(relpath, text)
    _, end = entry_frontmatter_span(text)
    spans: list[Span] = []
    marker = f"\nid: {entry.id}\n"
    position = text.find(marker, 0, end + 1)
    if position >= 0:
        spans.append(Span(position + 5, position + 5 + len(entry.id)))
    # A commit the entry declares as public evidence is public wherever the entry names it.
    for commit in entry.evidence.commits:
        found = text.find(commit.hash)
        while found >= 0:
            spans.append(Span(found, found + len(commit.hash)))
            found = text.find(commit.hash, found + 1)
    return spans


def _scene(relpath: str, text: str) -> list[Span]:
    load_scene(relpath, text)
    _check_name(SCENE_PATH, relpath)
    return []


def _skill(relpath: str, text: str) -> list[Span]:
    load_skill(relpath, text)
    return []


def _doctrine(relpath: str, text: str) -> list[Span]:
    load_doctrine(relpath, text)
    return []


def _index(relpath: str, text: str) -> list[Span]:
    """Every summary, name and description of the index is linted like the entry text it
    repeats. Only an entry's id where the index states it (`"id": "<id>"`) is allowed, as
    the `id:` line is in the entry (an older slug can hold a full commit hash)."""
    index = parse_index(text)
    spans: list[Span] = []
    for item in index.entries:
        entry_id = item.get("id")
        if not isinstance(entry_id, str) or not is_slug(entry_id):
            continue
        stated = f'"id": "{entry_id}"'
        found = text.find(stated)
        while found >= 0:
            start = found + len(stated) - len(entry_id) - 1
            spans.append(Span(start, start + len(entry_id)))
            found = text.find(stated, found + 1)
    return spans


def _check_name(pattern: re.Pattern[str], relpath: str) -> None:
    # Start-up seam (docs/architecture.md): only scene and skill names are checked, and the
    # slug module loads unicodedata.
    from git_memory.formats.slug import is_name  # noqa: PLC0415

    name = pattern.fullmatch(relpath).group(1)  # type: ignore[union-attr]
    if not is_name(name):
        raise FormatError(
            "GM_FORMAT_NAME_INVALID",
            f"{name!r} is not a valid name (lowercase slug of at most 64 characters)",
            line=1,
        )
