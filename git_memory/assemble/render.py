"""Render the memory block within a byte budget: entries, doctrine, scenes, skills (pure).

Layout (docs/guide-context.md): entries matching a query (`context QUERY` only), the entry
groups of `groups.GROUPS`, the doctrine, the scene index, the skill index, then a footer that
counts what was left out and says how to reach it. Every item is one line except the doctrine.

Filling is separate from layout. Items are taken in the order of what matters most — query
matches, the doctrine, scenes (hottest first), entries by rank, skills by name — and an item
that does not fit is left out whole while smaller ones after it may still fit. The footer is
reserved at its largest possible size first, so the block never exceeds the budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from git_memory.assemble.block import BEGIN_MARKER, END_MARKER, is_marker_line
from git_memory.assemble.entries import ApprovedEntry, one_line
from git_memory.assemble.groups import GROUPS

Provider = Literal["claude", "codex"]

MAX_LISTED_SCENES = 15
BYTES_PER_TOKEN = 4
HEADING = "## Team memory"
TARGET_FILES: dict[Provider, str] = {"claude": "CLAUDE.md", "codex": "AGENTS.md"}
SKILL_DIRS: dict[Provider, str] = {"claude": ".claude/skills", "codex": ".codex/skills"}


@dataclass(frozen=True)
class SceneLine:
    """What the block shows of one scene (`entries`: approved entries that belong to it)."""

    name: str
    heat: int
    summary: str
    entries: int = 0


@dataclass(frozen=True)
class SkillLine:
    """What the block shows of one skill."""

    name: str
    description: str


@dataclass(frozen=True)
class BlockInput:
    """Everything the block is made of. `entries` are fresh approved entries, any order."""

    provider: Provider
    memory_root: str
    budget: int
    doctrine: str | None = None
    scenes: Sequence[SceneLine] = ()
    skills: Sequence[SkillLine] = ()
    entries: Sequence[ApprovedEntry] = ()
    held_back: Sequence[str] = ()  # ids of approved entries left out as stale
    query: str | None = None
    matching: Sequence[str] = ()  # ids of entries matching `query`, best first


@dataclass(frozen=True)
class Rendered:
    """The rendered text and what it shows (entry ids) and leaves out."""

    text: str
    shown: list[str]
    via_scenes: list[str]
    left_out: list[str]
    held_back: list[str]
    scenes: tuple[int, int]  # (shown, left out)
    skills: tuple[int, int]
    doctrine: bool | None  # None: there is no doctrine

    @property
    def bytes(self) -> int:
        """Size of the text in UTF-8 bytes."""
        return len(self.text.encode("utf-8"))

    @property
    def tokens(self) -> int:
        """A rough token estimate (four bytes a token)."""
        return -(-self.bytes // BYTES_PER_TOKEN)


def _count(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _size(line: str) -> int:
    """Bytes of one line and its newline."""
    return len(line.encode("utf-8")) + 1


def scene_order(scenes: Sequence[SceneLine]) -> list[SceneLine]:
    """Heat descending, then name."""
    return sorted(scenes, key=lambda scene: (-scene.heat, scene.name))


def _doctrine_text(doctrine: str) -> str:
    # A marker line inside the doctrine would make the next splice refuse the file.
    lines = [
        line.replace("<!--", "&lt;!--", 1) if is_marker_line(line) else line
        for line in doctrine.strip().split("\n")
    ]
    return "\n".join(lines)


def _scene_item(scene: SceneLine, memory_root: str) -> str:
    count = f", {_count(scene.entries, 'entry', 'entries')}" if scene.entries else ""
    path = f"{memory_root}/scenes/{scene.name}.md"
    return f"- {path} (heat {scene.heat}{count}) — {one_line(scene.summary)}"


def _skill_item(skill: SkillLine, provider: Provider) -> str:
    return f"- {SKILL_DIRS[provider]}/{skill.name}/SKILL.md — {one_line(skill.description)}"


def _query_title(query: str) -> str:
    shown = one_line(query).replace("`", "'")[:80]
    return f'### Entries matching "{shown}"'


@dataclass
class _Section:
    title: str
    items: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [self.title, "", *self.items, ""] if self.items else []


@dataclass
class _Filler:
    room: int
    sections: dict[str, _Section]

    def take(self, section: str, item: str) -> bool:
        """Add `item` (one or more lines) to `section` when it fits in the room left."""
        target = self.sections[section]
        cost = sum(_size(line) for line in item.split("\n"))
        if not target.items:
            cost += _size(target.title) + 2  # heading, blank line after it and after the list
        if cost > self.room:
            return False
        target.items.append(item)
        self.room -= cost
        return True


def _footer(inp: BlockInput, entries: int, scenes: int, skills: int, doctrine: bool) -> list[str]:
    nouns = (
        (entries, "entry", "entries"),
        (scenes, "scene", "scenes"),
        (skills, "skill", "skills"),
    )
    parts = [_count(count, one, many) for count, one, many in nouns if count]
    parts += ["the doctrine"] if doctrine else []
    lines = []
    if parts:
        where = f"{inp.memory_root}/"
        lines.append(
            f"_Not shown here (budget {inp.budget} bytes): {', '.join(parts)}; "
            f"all of it is in `{where}`._"
        )
    if inp.held_back:
        stale = len(inp.held_back)
        verb = "is" if stale == 1 else "are"
        lines.append(
            f"_{_count(stale, 'stale entry', 'stale entries')} {verb} held back; "
            "`git memory verify` lists them._"
        )
    lines.append(
        "Find any approved memory with `git memory search QUERY` (or the `memory_search` MCP tool)."
    )
    return lines


@dataclass(frozen=True)
class _Plan:
    listed: list[ApprovedEntry]  # entries shown on their own line, rank order
    members: dict[str, list[str]]  # scene name -> ids of its entries
    matching: list[ApprovedEntry]


def _plan(inp: BlockInput) -> _Plan:
    names = {scene.name for scene in inp.scenes}
    by_id = {entry.id: entry for entry in inp.entries}
    matching = [by_id[i] for i in dict.fromkeys(inp.matching) if i in by_id]
    matched = {entry.id for entry in matching}
    members: dict[str, list[str]] = {}
    listed = []
    for entry in sorted(inp.entries, key=lambda e: e.rank):
        if entry.id in matched:
            continue
        if entry.scene is not None and entry.scene in names:
            members.setdefault(entry.scene, []).append(entry.id)
        else:
            listed.append(entry)
    return _Plan(listed, members, matching)


def _sections(inp: BlockInput) -> dict[str, _Section]:
    sections = {"matching": _Section(_query_title(inp.query or ""))}
    sections.update({group.key: _Section(f"### {group.title}") for group in GROUPS})
    sections["doctrine"] = _Section("### Team doctrine")
    sections["scenes"] = _Section("### Scenes")
    sections["skills"] = _Section("### Skills")
    return sections


@dataclass(frozen=True)
class _Filled:
    shown: list[str]
    scenes: list[SceneLine]  # the scene lines shown
    skills: int
    doctrine: bool | None


def _fill(inp: BlockInput, plan: _Plan, scenes: list[SceneLine], filler: _Filler) -> _Filled:
    """Take items in the order of what matters most (see the module docstring)."""
    shown = [e.id for e in plan.matching if filler.take("matching", f"- {e.text}")]
    doctrine = None
    if inp.doctrine is not None:
        doctrine = filler.take("doctrine", _doctrine_text(inp.doctrine))
    listed = [
        scene
        for scene in scenes[:MAX_LISTED_SCENES]
        if filler.take("scenes", _scene_item(scene, inp.memory_root))
    ]
    shown += [e.id for e in plan.listed if filler.take(e.group, f"- {e.text}")]
    skills = sorted(inp.skills, key=lambda skill: skill.name)
    skills_shown = sum(filler.take("skills", _skill_item(s, inp.provider)) for s in skills)
    return _Filled(shown, listed, skills_shown, doctrine)


def _render(inp: BlockInput, frame: list[str], tail: list[str]) -> Rendered:
    plan = _plan(inp)
    scenes = [
        SceneLine(s.name, s.heat, s.summary, len(plan.members.get(s.name, ())))
        for s in scene_order(inp.scenes)
    ]
    reserve = _footer(inp, len(inp.entries), len(scenes), len(inp.skills), inp.doctrine is not None)
    fixed = sum(_size(line) for line in [*frame, *reserve, *tail]) - 1
    filler = _Filler(inp.budget - fixed, _sections(inp))
    filled = _fill(inp, plan, scenes, filler)
    via = [i for s in filled.scenes for i in plan.members.get(s.name, ())]
    seen = set(filled.shown) | set(via)
    left_out = sorted(e.id for e in inp.entries if e.id not in seen)
    scenes_out, skills_out = len(scenes) - len(filled.scenes), len(inp.skills) - filled.skills
    footer = _footer(inp, len(left_out), scenes_out, skills_out, filled.doctrine is False)
    body = [line for section in filler.sections.values() for line in section.lines()]
    return Rendered(
        text="\n".join([*frame, *body, *footer, *tail]),
        shown=filled.shown,
        via_scenes=via,
        left_out=left_out,
        held_back=sorted(inp.held_back),
        scenes=(len(filled.scenes), scenes_out),
        skills=(filled.skills, skills_out),
        doctrine=filled.doctrine,
    )


def render_block(inp: BlockInput) -> Rendered:
    """The block from its BEGIN line to its END line (no final newline), within the budget."""
    return _render(inp, [BEGIN_MARKER, "", HEADING, ""], [END_MARKER])


def render_context(inp: BlockInput) -> Rendered:
    """The same rendering without the marker lines, for printing (`git memory context`)."""
    return _render(inp, [HEADING, ""], [])
