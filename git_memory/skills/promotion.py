"""Prepare and promote hooks of skill plans: `skills/<name>/SKILL.md`, never a delete.

At prepare the memory context and the target are checked again (create: absent; update: the
bound digest); at promote the memory context once more before any byte is written (the blob
CAS of promote guards the target itself).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from git_memory.contracts.skill import SkillDocument
from git_memory.errors import GitMemoryError
from git_memory.skills.pin_checks import check_memory_context, check_target, skill_path
from git_memory.store.candidates import require_candidate
from git_memory.store.db import StateDB

if TYPE_CHECKING:
    from git_memory.contracts.promotion import PlanOperation
    from git_memory.store.candidates import Candidate
    from git_memory.store.journal import PlanRecord
    from git_memory.store.session import Workspace


def plan_files(
    workspace: Workspace, candidates: list[Candidate]
) -> list[tuple[str, PlanOperation, str | None]]:
    """One write per skill candidate; two candidates for the same skill are refused."""
    workspace.sync_approved()  # the memory context is checked against the files as they are
    files: dict[str, str] = {}
    for candidate in candidates:
        skill = SkillDocument.model_validate(candidate.payload["skill"])
        path = skill_path(skill.name)
        if path in files:
            raise GitMemoryError(
                "GM_REQUEST_INVALID",
                f"two candidates write {path}; prepare one of them",
                hint="discard the skill candidate you do not want",
            )
        check_memory_context(
            workspace, candidate.payload["memoryContextDigest"], candidate.candidate_id
        )
        check_target(workspace.worktree, skill)
        files[path] = str(candidate.payload["content"])
    return [(path, "write", content) for path, content in files.items()]


def precheck(workspace: Workspace, record: PlanRecord) -> None:
    """Before promote writes: each skill's memory context must still be current."""
    workspace.sync_approved()  # the memory context is checked against the files as they are
    for candidate_id in record.candidate_ids:
        candidate = require_candidate(workspace.db, candidate_id)
        check_memory_context(
            workspace, candidate.payload["memoryContextDigest"], candidate.candidate_id
        )


def finalize(db: StateDB, record: PlanRecord) -> None:
    """Nothing beyond promote's own finalize for skills."""
    del db, record
