"""Load one memory file by its path: parse it as the kind its path names and check that the
file is bound to its path (an entry's id is its file name, a skill's name its directory).

Every reader of memory files (lint, the approved projection, assemble, recall's sources)
loads them here, so a file means the same thing to all of them. Paths are relative to the
memory root. Pure: the bytes are read elsewhere (no-follow, `repo/memory_tree.py`).
"""

from __future__ import annotations

import re

from git_memory.errors import FormatError
from git_memory.formats.entry import parse_entry

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from git_memory.formats.doctrine import Doctrine
    from git_memory.formats.entry import Entry
    from git_memory.formats.scene import Scene
    from git_memory.formats.skill_md import Skill

ENTRY_PATH = re.compile(r"entries/([^/]+)\.md")
SCENE_PATH = re.compile(r"scenes/([^/]+)\.md")
SKILL_PATH = re.compile(r"skills/([^/]+)/SKILL\.md")
DOCTRINE_PATH = "doctrine.md"


def load_entry(relpath: str, text: str) -> Entry:
    """`entries/<id>.md`: the entry, whose id must be its file name (GM_FORMAT_ID_MISMATCH)."""
    entry = parse_entry(text)
    stem = _bound_name(ENTRY_PATH, relpath)
    if entry.id != stem:
        raise FormatError(
            "GM_FORMAT_ID_MISMATCH",
            f"id {entry.id!r} does not match the file name {stem!r}.md",
            line=2,
        )
    return entry


def load_scene(relpath: str, text: str) -> Scene:
    """`scenes/<name>.md`: the scene (its name is the file name)."""
    # Start-up seam (docs/architecture.md): the hook parses the kinds it finds staged.
    from git_memory.formats.scene import parse_scene  # noqa: PLC0415

    _bound_name(SCENE_PATH, relpath)
    return parse_scene(text)


def load_skill(relpath: str, text: str) -> Skill:
    """`skills/<name>/SKILL.md`: the skill, whose name must be its directory
    (GM_FORMAT_SKILL_BINDING_DRIFT)."""
    # Start-up seam (docs/architecture.md): the hook parses the kinds it finds staged.
    from git_memory.formats.skill_md import parse_skill  # noqa: PLC0415

    skill = parse_skill(text)
    directory = _bound_name(SKILL_PATH, relpath)
    if skill.name != directory:
        raise FormatError(
            "GM_FORMAT_SKILL_BINDING_DRIFT",
            f"skill name {skill.name!r} does not match its directory {directory!r}",
            line=2,
        )
    return skill


def load_doctrine(relpath: str, text: str) -> Doctrine:
    """`doctrine.md`: the doctrine."""
    if relpath != DOCTRINE_PATH:
        raise ValueError(f"{relpath!r} is not {DOCTRINE_PATH}")
    # Start-up seam (docs/architecture.md): the hook parses the kinds it finds staged.
    from git_memory.formats.doctrine import parse_doctrine  # noqa: PLC0415

    return parse_doctrine(text)


def load_memory_file(relpath: str, data: bytes | str) -> Entry | Scene | Skill | Doctrine | None:
    """The parsed file `relpath` names, bound to its path; None for a path that is not a
    memory file (index.json, anything else). Bytes must be UTF-8 (GM_FORMAT_INVALID_UTF8)."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise FormatError("GM_FORMAT_INVALID_UTF8", "not valid UTF-8") from exc
    if ENTRY_PATH.fullmatch(relpath):
        return load_entry(relpath, data)
    if SCENE_PATH.fullmatch(relpath):
        return load_scene(relpath, data)
    if SKILL_PATH.fullmatch(relpath):
        return load_skill(relpath, data)
    if relpath == DOCTRINE_PATH:
        return load_doctrine(relpath, data)
    return None


def _bound_name(pattern: re.Pattern[str], relpath: str) -> str:
    found = pattern.fullmatch(relpath)
    if found is None:
        raise ValueError(f"{relpath!r} does not match {pattern.pattern}")
    return found.group(1)
