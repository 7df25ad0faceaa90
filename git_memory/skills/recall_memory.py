"""memoryContext and skillContext for recall: approved memory the agent should build on."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from git_memory.contracts import recall
from git_memory.skills.recall_context import (
    DoctrineSource,
    EntrySource,
    SceneSource,
    SkillSource,
    build_memory_context,
    build_skill_context,
)
from git_memory.skills.sources import parse_memory_files
from git_memory.store.approved import list_approved_entries
from git_memory.store.session import Workspace


@dataclass(frozen=True)
class MemorySources:
    """Everything approved, parsed once per recall."""

    scenes: list[SceneSource]
    doctrine: DoctrineSource | None
    entries: list[EntrySource]
    skills: list[SkillSource]


def load_sources(workspace: Workspace) -> MemorySources:
    """Scenes, doctrine and skills from the worktree; entries from the approved projection."""
    worktree = workspace.worktree
    files = parse_memory_files(worktree.root, worktree.memory_root)
    return MemorySources(files.scenes, files.doctrine, _approved_entries(workspace), files.skills)


def _approved_entries(workspace: Workspace) -> list[EntrySource]:
    rows = list_approved_entries(workspace.db, workspace.owner)
    entries = []
    for row in rows:
        front: dict[str, Any] = json.loads(row["frontmatter_json"])
        entries.append(
            EntrySource(
                entry_id=row["entry_id"],
                revision=int(row["revision"]),
                content_digest=row["content_digest"],
                type=row["type"],
                scene=row["scene"] or None,
                priority=int(row["priority"] or 0),
                confidence=str(front.get("confidence", "medium")),
                limitations=tuple(front.get("limitations", ())),
                body=row["body_text"],
            )
        )
    return entries


def build_contexts(
    sources: MemorySources, query: str | None
) -> tuple[recall.MemoryContext, recall.SkillContext]:
    """(memoryContext, skillContext) of a recall response."""
    memory = build_memory_context(sources.scenes, sources.doctrine, sources.entries, query)
    skills = build_skill_context(sources.skills, query)
    return memory.memory_context(), skills.skill_context()
