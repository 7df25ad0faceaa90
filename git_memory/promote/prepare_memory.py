"""Prepare for scene/doctrine patches and skills: the same confirmation, lint gate, blob
binding and journal as entries, with files rendered by the kind's own module.

`consolidation` plans write `scenes/<name>.md` / `doctrine.md` and delete the sources a merge
folds away; `skill` plans write `skills/<name>/SKILL.md`. Each kind module checks its binding
(memory changed since staging → `GM_BINDING_DRIFT`) and returns `(relative path, operation,
content)` triples.
"""

from __future__ import annotations

from collections.abc import Sequence

from git_memory.contracts.extraction import OwnerKeys
from git_memory.contracts.promotion import (
    PlanOperation,
    PrepareCandidate,
    PrepareRequest,
    PromotionPlan,
)
from git_memory.errors import GitMemoryError
from git_memory.promote import plan as planning
from git_memory.promote.gate import lint_gate
from git_memory.promote.kinds import PromotionKinds
from git_memory.promote.prepare import (
    assessment_rows,
    bound_file,
    build_plan,
    confirmed_assessments,
    store_plan,
)
from git_memory.promote.render import RenderedFile
from git_memory.promote.writer import read_target
from git_memory.repo.binding import Worktree
from git_memory.store import candidates as store
from git_memory.store.db import StateDB
from git_memory.store.session import Workspace

STORE_KIND = {"skill": "skill", "consolidation": "consolidation-patch"}


def _checked(db: StateDB, owner: OwnerKeys, item: PrepareCandidate, kind: str) -> store.Candidate:
    candidate = store.require_candidate(db, item.candidate_id, owner)
    if candidate.kind != STORE_KIND[kind]:
        raise GitMemoryError(
            "GM_PREPARE_KIND_UNSUPPORTED",
            f"candidate {item.candidate_id!r} is a {candidate.kind} candidate, not {kind}",
            hint=f"prepare it with the kind `git memory review` shows for it, not {kind}",
        )
    if candidate.status != "quarantined":
        raise GitMemoryError(
            "GM_CANDIDATE_STATE_INVALID",
            f"candidate {item.candidate_id!r} is {candidate.status}, not quarantined",
        )
    confirmed_assessments(db, candidate, item)
    return candidate


def _planned(
    worktree: Worktree, triples: Sequence[tuple[str, PlanOperation, str | None]]
) -> list[planning.PlannedFile]:
    planned = []
    for relpath, operation, content in triples:
        path = planning.check_target_path(f"{worktree.memory_root}/{relpath}", worktree.memory_root)
        current = read_target(worktree.root, path)
        if operation == "delete" and current is None:
            continue  # already absent: nothing to delete
        data = b"" if content is None else content.encode("utf-8")
        planned.append(bound_file(path, current, data, operation))
    planning.check_sizes(planned)
    return planned


def _lint(planned: Sequence[planning.PlannedFile], worktree: Worktree) -> None:
    writes = [p for p in planned if p.operation == "write"]
    lint_gate(
        [RenderedFile(p.target_path, p.content, p.old_content, "") for p in writes],
        worktree,
    )


def prepare_memory_plan(
    workspace: Workspace, request: PrepareRequest, kinds: PromotionKinds
) -> PromotionPlan:
    """Build and store a `generated` plan of kind skill or consolidation; returns it."""
    worktree, db, owner = workspace.worktree, workspace.db, workspace.owner
    module = kinds[request.kind]
    with db.read():
        found = [_checked(db, owner, item, request.kind) for item in request.candidates]
        confirmed = assessment_rows(db, request.candidates)
    triples = module.plan_files(workspace, found)
    planned = _planned(worktree, triples)
    _lint(planned, worktree)
    plan = build_plan(workspace.binding, request, confirmed, planned)
    store_plan(
        db,
        owner,
        request,
        plan,
        recheck=lambda item: _checked(db, owner, item, request.kind),
        contents={p.target_path: p.content for p in planned},
    )
    return plan
