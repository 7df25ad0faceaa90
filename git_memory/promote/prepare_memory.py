"""Prepare for scene/doctrine patches and skills: the same confirmation, lint gate, blob
binding and journal as entries, with files rendered by the kind's own module.

`consolidation` plans write `scenes/<name>.md` / `doctrine.md` and delete the sources a merge
folds away; `skill` plans write `skills/<name>/SKILL.md`. Each kind module checks its binding
(memory changed since staging → `GM_BINDING_DRIFT`) and returns `(relative path, operation,
content)` triples.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from git_memory.contracts.promotion import PrepareCandidate, PrepareRequest, PromotionPlan
from git_memory.errors import GitMemoryError
from git_memory.promote import plan as planning
from git_memory.promote.prepare import (
    _check_statements,
    _record_confirmation,
    assessment_rows,
    confirmation_drift,
    owner_of,
)
from git_memory.promote.writer import read_target
from git_memory.repo.binding import Worktree
from git_memory.repo.blobs import blob_oid
from git_memory.store import candidates as store
from git_memory.store import journal
from git_memory.store.db import Owner, StateDB

STORE_KIND = {"skill": "skill", "consolidation": "consolidation-patch"}
KIND_MODULES = {
    "skill": "git_memory.skills.promotion",
    "consolidation": "git_memory.consolidate.promotion",
}


def kind_module(kind: str) -> Any:
    """The module that renders and checks plans of `kind`."""
    return importlib.import_module(KIND_MODULES[kind])


def _checked(db: StateDB, owner: Owner, item: PrepareCandidate, kind: str) -> store.Candidate:
    candidate = store.require_candidate(db, item.candidateId, owner)
    if candidate.kind != STORE_KIND[kind]:
        raise GitMemoryError(
            "GM_PREPARE_KIND_UNSUPPORTED",
            f"candidate {item.candidateId!r} is a {candidate.kind} candidate, not {kind}",
            hint=f"prepare it with the kind `git memory review` shows for it, not {kind}",
        )
    if candidate.status != "quarantined":
        raise GitMemoryError(
            "GM_CANDIDATE_STATE_INVALID",
            f"candidate {item.candidateId!r} is {candidate.status}, not quarantined",
        )
    if candidate.revision != item.expectedRevision:
        raise GitMemoryError(
            "GM_REVISION_CONFLICT",
            f"candidate {item.candidateId!r} is at revision {candidate.revision}, "
            f"not {item.expectedRevision}",
            hint="run `git memory review` again",
            details={"candidateId": item.candidateId, "currentRevision": candidate.revision},
        )
    current = {a.statement_id: a for a in store.assessments(db, item.candidateId)}
    _check_statements(item, current)
    return candidate


def _planned(
    worktree: Worktree, triples: Sequence[tuple[str, str, str | None]]
) -> list[planning.PlannedFile]:
    planned = []
    for relpath, operation, content in triples:
        path = planning.check_target_path(f"{worktree.memory_root}/{relpath}", worktree.memory_root)
        current = read_target(worktree.root, path)
        if operation == "delete" and current is None:
            continue  # already absent: nothing to delete
        planned.append(
            planning.PlannedFile(
                target_path=path,
                target_blob_hash=None if current is None else blob_oid(current),
                content=b"" if content is None else content.encode("utf-8"),
                old_content=current,
                operation=operation,
            )
        )
    planning.check_sizes(planned)
    return planned


def _lint(planned: Sequence[planning.PlannedFile], memory_root: str) -> None:
    from git_memory.promote.prepare import lint_gate
    from git_memory.promote.render import RenderedFile

    writes = [p for p in planned if p.operation == "write"]
    lint_gate(
        [RenderedFile(p.target_path, p.content, p.old_content, "") for p in writes],
        memory_root,
    )


def prepare_memory_plan(worktree: Worktree, db: StateDB, request: PrepareRequest) -> PromotionPlan:
    """Build and store a `generated` plan of kind skill or consolidation; returns it."""
    import uuid

    binding, owner = owner_of(worktree)
    module = kind_module(request.kind)
    with db.read():
        found = [_checked(db, owner, item, request.kind) for item in request.candidates]
        confirmed = assessment_rows(db, request.candidates)
    triples = module.plan_files(worktree, db, owner, found)
    planned = _planned(worktree, triples)
    _lint(planned, worktree.memory_root)
    plan = PromotionPlan(
        planId=f"plan-{uuid.uuid4().hex}",
        owner=binding,
        candidateIds=[item.candidateId for item in request.candidates],
        assessmentDigest=planning.assessment_digest(confirmed),
        perFile=[item.per_file() for item in planned],
        diff=planning.unified_diff(planned),
    )
    with db.write():
        for item in request.candidates:
            _checked(db, owner, item, request.kind)
        if planning.assessment_digest(assessment_rows(db, request.candidates)) != (
            plan.assessmentDigest
        ):
            raise confirmation_drift("the assessments changed while the plan was built")
        _record_confirmation(db, request.candidates)
        journal.create_plan(
            db,
            plan=plan,
            owner=owner,
            contents={p.target_path: p.content for p in planned},
            kind=request.kind,
        )
    return plan
