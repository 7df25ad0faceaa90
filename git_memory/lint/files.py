"""Format checks by file kind, as lint findings, plus the spans exempt from token rules."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from git_memory.errors import FormatError
from git_memory.formats.memory_file import DOCTRINE_PATH, ENTRY_PATH, SCENE_PATH, SKILL_PATH
from git_memory.lint.engine import Finding, Span, format_finding

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
    from git_memory.formats.entry import entry_frontmatter_span
    from git_memory.formats.memory_file import load_entry

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
    from git_memory.formats.memory_file import load_scene

    load_scene(relpath, text)
    _check_name(SCENE_PATH, relpath)
    return []


def _skill(relpath: str, text: str) -> list[Span]:
    from git_memory.formats.memory_file import load_skill

    load_skill(relpath, text)
    return []


def _doctrine(relpath: str, text: str) -> list[Span]:
    from git_memory.formats.memory_file import load_doctrine

    load_doctrine(relpath, text)
    return []


def _index(relpath: str, text: str) -> list[Span]:
    """The index repeats every entry id and scene/skill name: those are allowed, as they are
    in the files themselves (a slug can look random enough to trip the entropy rule)."""
    from git_memory.formats.index_json import parse_index

    index = parse_index(text)
    spans = _summary_spans(text, [item.get("summary") for item in index.entries])
    names = [item.get("id") for item in index.entries]
    names += [item.get("name") for item in (*index.scenes, *index.skills)]
    for name in names:
        if not isinstance(name, str) or not name:
            continue
        quoted = f'"{name}"'
        found = text.find(quoted)
        while found >= 0:
            spans.append(Span(found + 1, found + 1 + len(name)))
            found = text.find(quoted, found + 1)
    return spans


def _summary_spans(text: str, summaries: list[Any]) -> list[Span]:
    """A summary repeats its entry's body, which is linted in the entry file: hashes and
    random-looking ids there are judged once, in the entry (token rules still run here)."""
    import json

    spans: list[Span] = []
    for summary in summaries:
        if not isinstance(summary, str) or not summary:
            continue
        encoded = json.dumps(summary, ensure_ascii=False)[1:-1]
        found = text.find(encoded)
        if found >= 0:
            spans.append(Span(found, found + len(encoded)))
    return spans


def _check_name(pattern: re.Pattern[str], relpath: str) -> None:
    from git_memory.formats.slug import is_name

    name = pattern.fullmatch(relpath).group(1)  # type: ignore[union-attr]
    if not is_name(name):
        raise FormatError(
            "GM_FORMAT_NAME_INVALID",
            f"{name!r} is not a valid name (lowercase slug of at most 64 characters)",
            line=1,
        )
