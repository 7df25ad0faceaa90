"""The checks every step of a skill candidate repeats: memory context and target file.

`memoryContextDigest` pins ALL approved entries, scenes and doctrine as recall saw them
(`skills.recall_context.memory_binding_digest`); once any of them changes the candidate is refused
with `GM_BINDING_DRIFT` at stage, review, prepare and promote. A create needs the skill to be
absent; an update binds the sha256 of the current SKILL.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from git_memory import safefs
from git_memory.contracts.canonical import sha256_hex
from git_memory.errors import GitMemoryError
from git_memory.skills.recall_context import memory_binding_digest
from git_memory.skills.recall_memory import load_sources

if TYPE_CHECKING:
    from git_memory.contracts.skill import SkillDocument
    from git_memory.repo.binding import Worktree
    from git_memory.store.session import Workspace


def skill_path(name: str) -> str:
    """`skills/<name>/SKILL.md`, relative to the memory root."""
    return f"skills/{name}/SKILL.md"


def current_memory_digest(workspace: Workspace) -> str:
    """The memory context binding digest of the approved memory now."""

    sources = load_sources(workspace)
    return memory_binding_digest(sources.entries, sources.scenes, sources.doctrine)


def drift(message: str, **details: Any) -> GitMemoryError:
    """`GM_BINDING_DRIFT` for a skill candidate."""
    return GitMemoryError(
        "GM_BINDING_DRIFT",
        message,
        hint="recall again, rewrite the skill against the new memoryContext and stage it; "
        "discard the old candidate with `git memory discard`",
        details=details or None,
    )


def check_memory_context(
    workspace: Workspace, expected: str, candidate_id: str | None = None
) -> None:
    """Refuse when approved memory changed since the recall the skill was written from."""
    current = current_memory_digest(workspace)
    if current != expected:
        raise drift(
            "approved entries, scenes or doctrine changed since the skill's memory context "
            "was recalled",
            reason="memory-context",
            candidateId=candidate_id,
            expected=expected,
            current=current,
        )


def check_target(worktree: Worktree, skill: SkillDocument) -> bytes | None:
    """The current SKILL.md bytes, after checking them against the skill's action."""
    path = skill_path(skill.name)
    current = safefs.read_file_nofollow(worktree.root, f"{worktree.memory_root}/{path}")
    if skill.action == "create" and current is not None:
        raise GitMemoryError(
            "GM_SKILL_EXISTS",
            f"{path} exists; a create needs the skill to be absent",
            hint="stage an update with expectedContentDigest = sha256 of the current file",
            details={"path": path, "contentDigest": sha256_hex(current)},
        )
    if skill.action == "update" and current is None:
        raise GitMemoryError(
            "GM_SKILL_NOT_FOUND",
            f"{path} does not exist; an update needs the current skill",
            hint="stage a create (expectedContentDigest null) instead",
            details={"path": path},
        )
    # Here an existing file means an update: it must be the bytes the update was written on.
    if current is not None and sha256_hex(current) != skill.expected_content_digest:
        raise drift(
            f"{path} changed since the update was written",
            reason="skill-content",
            path=path,
            current=sha256_hex(current),
        )
    return current
