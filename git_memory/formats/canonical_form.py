"""The canonical text of a memory file, by its kind (what `git memory fmt` writes)."""

from __future__ import annotations

import re

from git_memory.formats.doctrine import parse_doctrine, serialize_doctrine
from git_memory.formats.entry import parse_entry, serialize_entry
from git_memory.formats.scene import parse_scene, serialize_scene
from git_memory.formats.skill_md import parse_skill, serialize_skill

ENTRY = re.compile(r"entries/[^/]+\.md")
SCENE = re.compile(r"scenes/[^/]+\.md")
SKILL = re.compile(r"skills/[^/]+/SKILL\.md")


def formattable(relpath: str) -> bool:
    """Whether fmt rewrites this memory-root-relative path (not index.json, not others)."""
    return bool(
        ENTRY.fullmatch(relpath)
        or SCENE.fullmatch(relpath)
        or SKILL.fullmatch(relpath)
        or relpath == "doctrine.md"
    )


def canonical_text(relpath: str, text: str) -> str:
    """Parse and re-serialize; raises `FormatError` when the file does not parse."""
    if ENTRY.fullmatch(relpath):
        return serialize_entry(parse_entry(text))
    if SCENE.fullmatch(relpath):
        return serialize_scene(parse_scene(text))
    if SKILL.fullmatch(relpath):
        return serialize_skill(parse_skill(text))
    if relpath == "doctrine.md":
        return serialize_doctrine(parse_doctrine(text))
    raise ValueError(f"not a formattable memory file: {relpath}")
