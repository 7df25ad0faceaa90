"""Render the generated memory block: doctrine, scene index, skill index (pure).

Entries are never listed: the agent finds them on demand with `git memory search`. Scenes are
navigation only (path, heat, summary), hottest first, at most `MAX_LISTED_SCENES`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from git_memory.assemble.block import BEGIN_MARKER, END_MARKER, is_marker_line

Provider = Literal["claude", "codex"]

MAX_LISTED_SCENES = 15
NO_DOCTRINE = "_No approved team doctrine yet._"
TARGET_FILES: dict[Provider, str] = {"claude": "CLAUDE.md", "codex": "AGENTS.md"}
SKILL_DIRS: dict[Provider, str] = {"claude": ".claude/skills", "codex": ".codex/skills"}


@dataclass(frozen=True)
class SceneLine:
    """What the block shows of one scene."""

    name: str
    heat: int
    summary: str


@dataclass(frozen=True)
class SkillLine:
    """What the block shows of one skill."""

    name: str
    description: str


def _one_line(text: str) -> str:
    # Summaries and descriptions are single-line by format; collapse anyway so a stray
    # newline can never break the list (or smuggle a fake marker line into the block).
    return " ".join(text.split())


def _doctrine_text(doctrine: str | None) -> str:
    text = (doctrine or "").strip()
    if not text:
        return NO_DOCTRINE
    # A marker line inside the doctrine would make the next splice refuse the file.
    lines = [
        line.replace("<!--", "&lt;!--", 1) if is_marker_line(line) else line
        for line in text.split("\n")
    ]
    return "\n".join(lines)


def scene_order(scenes: Sequence[SceneLine]) -> list[SceneLine]:
    """Heat descending, then name."""
    return sorted(scenes, key=lambda scene: (-scene.heat, scene.name))


def _scene_section(scenes: Sequence[SceneLine], memory_root: str) -> list[str]:
    if not scenes:
        return []
    ordered = scene_order(scenes)
    lines = ["### Scenes", ""]
    for scene in ordered[:MAX_LISTED_SCENES]:
        path = f"{memory_root}/scenes/{scene.name}.md"
        lines.append(f"- {path} (heat {scene.heat}) — {_one_line(scene.summary)}")
    omitted = len(ordered) - MAX_LISTED_SCENES
    if omitted > 0:
        lines.append(f"- _{omitted} additional scene(s) omitted._")
    return [*lines, ""]


def _skill_section(skills: Sequence[SkillLine], provider: Provider) -> list[str]:
    if not skills:
        return []
    lines = ["### Skills", ""]
    for skill in sorted(skills, key=lambda item: item.name):
        path = f"{SKILL_DIRS[provider]}/{skill.name}/SKILL.md"
        lines.append(f"- {path} — {_one_line(skill.description)}")
    return [*lines, ""]


def render_block(
    *,
    provider: Provider,
    memory_root: str,
    doctrine: str | None,
    scenes: Sequence[SceneLine],
    skills: Sequence[SkillLine],
) -> str:
    """The block from its BEGIN line to its END line, without a final newline."""
    lines = [BEGIN_MARKER, "", "## Team memory", "", _doctrine_text(doctrine), ""]
    lines += _scene_section(scenes, memory_root)
    lines += _skill_section(skills, provider)
    lines.append(END_MARKER)
    return "\n".join(lines)
