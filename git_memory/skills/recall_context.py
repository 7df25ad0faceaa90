"""The `skillContext` and `memoryContext` of a recall response (pure).

A skill is written memory-first: existing skills, then scenes, doctrine and approved entries,
and only then the historical turns. Both contexts are bounded (count and bytes) and say when
they are `truncated`, which means "narrow the query and recall again", never "nothing else
exists". `memoryContext.binding` pins the approved memory the skill was written against; a
SkillCandidate echoes `bindingDigest` and is refused once any entry, scene or doctrine
changes.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from git_memory.contracts import recall
from git_memory.contracts.canonical import canonical_json, digest

SKILL_CONTEXT_MAX_ITEMS = recall.MAX_SKILL_ITEMS
MEMORY_CONTEXT_MAX_ITEMS = recall.MAX_MEMORY_ITEMS
CONTEXT_MAX_BYTES = recall.MAX_CONTEXT_BYTES

# Letters and digits (`[^\W_]`), then letters, digits or hyphens: 2..64 characters.
_TERM = re.compile(r"[^\W_](?:[^\W_]|-){1,63}")

Selection = recall.ContextSelection


@dataclass(frozen=True)
class SkillSource:
    """An existing skill: the parsed name/description and the whole SKILL.md text."""

    name: str
    description: str
    document: str
    content_digest: str  # sha256 of the file bytes


@dataclass(frozen=True)
class SceneSource:
    """An approved scene."""

    name: str
    heat: int
    summary: str
    content_digest: str
    document: str


@dataclass(frozen=True)
class DoctrineSource:
    """The approved doctrine."""

    content_digest: str
    document: str


@dataclass(frozen=True)
class EntrySource:
    """An approved entry."""

    entry_id: str
    revision: int
    content_digest: str
    type: str
    scene: str | None
    priority: int
    confidence: str
    limitations: tuple[str, ...]
    body: str


@dataclass(frozen=True)
class ContextWindow:
    """Counts and items of one bounded context."""

    total: int
    returned: int
    returned_bytes: int
    truncated: bool
    selection: Selection
    items: list[dict[str, Any]] = field(default_factory=list)

    def skill_context(self) -> recall.SkillContext:
        """The `skillContext` of a recall response (for a window of skills)."""
        return recall.SkillContext(**asdict(self))

    def to_json(self) -> dict[str, Any]:
        """The `skillContext` document of a recall response (for a window of skills)."""
        return self.skill_context().to_json()


def fold(text: str) -> str:
    """NFKC, then lowercase: how queries and the texts they are matched against compare."""
    return unicodedata.normalize("NFKC", text).lower()


def query_terms(query: str | None) -> list[str]:
    """The whole folded query plus its letter/digit tokens, unique, in order of appearance."""
    folded = fold(query or "").strip()
    if not folded:
        return []
    terms = [folded, *_TERM.findall(folded)]
    return list(dict.fromkeys(terms))


def item_bytes(item: dict[str, Any]) -> int:
    """Size of one context item: its canonical JSON bytes."""
    return len(canonical_json(item))


def _name_score(name: str, term: str) -> int:
    if name == term:
        return 16
    return 8 if term in name else 0


def skill_score(skill: SkillSource, terms: Sequence[str]) -> int:
    """Name equal 16, name contains 8, description 4, document 1 — per term."""
    name, description, document = fold(skill.name), fold(skill.description), fold(skill.document)
    score = 0
    for term in terms:
        score += _name_score(name, term)
        score += 4 if term in description else 0
        score += 1 if term in document else 0
    return score


def _skill_item(skill: SkillSource) -> dict[str, Any]:
    return {
        "name": skill.name,
        "description": skill.description,
        "contentDigest": skill.content_digest,
        "document": skill.document,
    }


def build_skill_context(skills: Sequence[SkillSource], query: str | None) -> ContextWindow:
    """Existing skills: all of them (by name) when they fit, else ranked by the query.

    Ranked filling stops at the first skill that would exceed the byte budget; a skill is
    never cut.
    """
    by_name = sorted(skills, key=lambda skill: skill.name)
    items = [_skill_item(skill) for skill in by_name]
    sizes = [item_bytes(item) for item in items]
    if len(items) <= SKILL_CONTEXT_MAX_ITEMS and sum(sizes) <= CONTEXT_MAX_BYTES:
        return ContextWindow(len(items), len(items), sum(sizes), False, "all", items)
    terms = query_terms(query)
    order = sorted(range(len(by_name)), key=lambda i: (-skill_score(by_name[i], terms), i))
    chosen: list[dict[str, Any]] = []
    used = 0
    for index in order[:SKILL_CONTEXT_MAX_ITEMS]:
        if used + sizes[index] > CONTEXT_MAX_BYTES:
            break
        chosen.append(items[index])
        used += sizes[index]
    return ContextWindow(len(items), len(chosen), used, True, "query-ranked", chosen)


def entry_set_digest(entries: Sequence[EntrySource]) -> str:
    """`digest(sorted [{entryId, revision, contentDigest}])`."""
    rows = [
        {"entryId": e.entry_id, "revision": e.revision, "contentDigest": e.content_digest}
        for e in sorted(entries, key=lambda e: e.entry_id)
    ]
    return digest(rows)


def scene_index_digest(scenes: Sequence[SceneSource]) -> str:
    """`digest(sorted [{name, contentDigest, heat}])`."""
    rows = [
        {"name": s.name, "contentDigest": s.content_digest, "heat": s.heat}
        for s in sorted(scenes, key=lambda s: s.name)
    ]
    return digest(rows)


def memory_binding(
    entries: Sequence[EntrySource],
    scenes: Sequence[SceneSource],
    doctrine: DoctrineSource | None,
) -> dict[str, Any]:
    """The approved memory a skill is written against (all of it, not only what is returned)."""
    return recall.MemoryContextBinding(
        entry_set_digest=entry_set_digest(entries),
        scene_index_digest=scene_index_digest(scenes),
        doctrine_digest=doctrine.content_digest if doctrine is not None else None,
    ).to_json()


def memory_binding_digest(
    entries: Sequence[EntrySource],
    scenes: Sequence[SceneSource],
    doctrine: DoctrineSource | None,
) -> str:
    """`digest(binding)`: what `SkillCandidate.memoryContextDigest` must equal."""
    return digest(memory_binding(entries, scenes, doctrine))


def scene_score(scene: SceneSource, terms: Sequence[str]) -> int:
    """Name equal 16, name contains 8, summary 4, document 1 — per term."""
    name, summary, document = fold(scene.name), fold(scene.summary), fold(scene.document)
    return sum(
        _name_score(name, t) + (4 if t in summary else 0) + (1 if t in document else 0)
        for t in terms
    )


def entry_score(entry: EntrySource, terms: Sequence[str]) -> int:
    """Id equal 16, id contains 8, scene contains 4, body 1 — per term."""
    entry_id, scene, body = fold(entry.entry_id), fold(entry.scene or ""), fold(entry.body)
    return sum(
        _name_score(entry_id, t) + (4 if scene and t in scene else 0) + (1 if t in body else 0)
        for t in terms
    )


def _scene_item(scene: SceneSource) -> dict[str, Any]:
    return {
        "kind": "scene",
        "name": scene.name,
        "heat": scene.heat,
        "summary": scene.summary,
        "contentDigest": scene.content_digest,
        "document": scene.document,
    }


def _doctrine_item(doctrine: DoctrineSource) -> dict[str, Any]:
    return {
        "kind": "doctrine",
        "name": "doctrine",
        "contentDigest": doctrine.content_digest,
        "document": doctrine.document,
    }


def _entry_item(entry: EntrySource) -> dict[str, Any]:
    return {
        "kind": "approved-entry",
        "entryId": entry.entry_id,
        "revision": entry.revision,
        "contentDigest": entry.content_digest,
        "type": entry.type,
        "scene": entry.scene,
        "priority": entry.priority,
        "confidence": entry.confidence,
        "limitations": list(entry.limitations),
        "body": entry.body,
    }


def _ranked_items(
    scenes: Sequence[SceneSource],
    doctrine: DoctrineSource | None,
    entries: Sequence[EntrySource],
    terms: Sequence[str],
) -> list[dict[str, Any]]:
    def scene_key(scene: SceneSource) -> tuple[int, int, str]:
        return (-scene_score(scene, terms), -scene.heat, scene.name)

    def entry_key(entry: EntrySource) -> tuple[int, int, str]:
        return (-entry_score(entry, terms), -entry.priority, entry.entry_id)

    items = [_scene_item(scene) for scene in sorted(scenes, key=scene_key)]
    if doctrine is not None:
        items.append(_doctrine_item(doctrine))
    items += [_entry_item(entry) for entry in sorted(entries, key=entry_key)]
    return items


@dataclass(frozen=True)
class RankedMemoryContext:
    """`memoryContext`: the bounded approved memory plus the binding a skill must echo."""

    binding: dict[str, Any]
    window: ContextWindow

    @property
    def binding_digest(self) -> str:
        """`digest(binding)`."""
        return digest(self.binding)

    def memory_context(self) -> recall.MemoryContext:
        """The `memoryContext` of a recall response."""
        return recall.MemoryContext(
            binding=self.binding, binding_digest=self.binding_digest, **asdict(self.window)
        )

    def to_json(self) -> dict[str, Any]:
        """The `memoryContext` document of a recall response."""
        return self.memory_context().to_json()


def build_memory_context(
    scenes: Sequence[SceneSource],
    doctrine: DoctrineSource | None,
    entries: Sequence[EntrySource],
    query: str | None,
) -> RankedMemoryContext:
    """Scenes (score, heat desc, name), the doctrine, then entries (score, priority desc, id).

    At most 40 items and 128 KiB; an item that does not fit is skipped and filling goes on.
    """
    terms = query_terms(query)
    items = _ranked_items(scenes, doctrine, entries, terms)
    chosen: list[dict[str, Any]] = []
    used = 0
    for item in items:
        if len(chosen) == MEMORY_CONTEXT_MAX_ITEMS:
            break
        size = item_bytes(item)
        if used + size > CONTEXT_MAX_BYTES:
            continue
        chosen.append(item)
        used += size
    window = ContextWindow(
        total=len(items),
        returned=len(chosen),
        returned_bytes=used,
        truncated=len(chosen) < len(items),
        selection="query-ranked" if terms else "all",
        items=chosen,
    )
    return RankedMemoryContext(binding=memory_binding(entries, scenes, doctrine), window=window)
