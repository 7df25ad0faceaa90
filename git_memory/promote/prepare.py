"""Prepare: check the human's confirmation, render, lint-gate and store a PromotionPlan.

The PrepareRequest names each candidate at its expected revision with the exact digests of
every statement the human saw; that match *is* the confirmation. Nothing changes unless every
check passes: the confirmation and the plan are written in one transaction at the end.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC
from typing import TYPE_CHECKING, Any

from git_memory.assemble.in_step import agents_in_plan
from git_memory.contracts.base import parse_timestamp
from git_memory.contracts.extraction import OwnerKeys
from git_memory.contracts.promotion import (
    PlanOperation,
    PrepareCandidate,
    PrepareRequest,
    PromotionPlan,
)
from git_memory.errors import GitMemoryError
from git_memory.promote import plan as planning
from git_memory.promote import tree
from git_memory.promote.directive_gate import require_confirmed
from git_memory.promote.gate import lint_gate
from git_memory.promote.render import (
    CandidateInput,
    CitedEvidence,
    RenderedFile,
    StatementToRender,
    TreeView,
    render_candidates,
)
from git_memory.promote.writer import read_target
from git_memory.repo.binding import Worktree
from git_memory.repo.blobs import blob_oid, commit_exists
from git_memory.store import candidates as store
from git_memory.store import journal
from git_memory.store.db import StateDB

if TYPE_CHECKING:
    from git_memory.contracts.binding import RepositoryBinding
    from git_memory.store.session import Workspace


def prepare_plan(workspace: Workspace, request: PrepareRequest) -> PromotionPlan:
    """Build and store a `generated` plan for the confirmed entry candidates; returns it."""
    worktree, db, owner = workspace.worktree, workspace.db, workspace.owner
    with db.read():
        inputs = [_checked_input(db, owner, item) for item in request.candidates]
        confirmed = assessment_rows(db, request.candidates)
    # Lint first: a secret or a hidden character is refused outright, before anyone is asked
    # to confirm the directives of a text that can never be planned.
    files = _render(worktree, inputs)
    require_confirmed(request.candidates, [item.content for item in inputs])
    planned = _planned(worktree, files)
    plan = build_plan(workspace.binding, request, confirmed, planned, agents_in_plan(worktree))
    store_plan(
        db,
        owner,
        request,
        plan,
        recheck=lambda item: _checked_input(db, owner, item),
        contents={f.target_path: f.content for f in files},
    )
    return plan


def store_plan(
    db: StateDB,
    owner: OwnerKeys,
    request: PrepareRequest,
    plan: PromotionPlan,
    *,
    recheck: Callable[[PrepareCandidate], object],
    contents: Mapping[str, bytes],
) -> None:
    """Record the confirmation and journal the plan in one writer transaction.

    Every candidate is re-checked with `recheck` inside that transaction, and the
    assessments must still digest to the plan's: nothing may have moved since the read.
    """
    with db.write():
        for item in request.candidates:
            recheck(item)
        if planning.assessment_digest(assessment_rows(db, request.candidates)) != (
            plan.assessment_digest
        ):
            raise confirmation_drift("the assessments changed while the plan was built")
        _record_confirmation(db, request.candidates)
        journal.create_plan(db, plan=plan, owner=owner, contents=contents, kind=request.kind)


def confirmation_drift(message: str, **details: Any) -> GitMemoryError:
    """`GM_CONFIRMATION_DRIFT`: what the human confirmed is not what is stored now."""
    return GitMemoryError(
        "GM_CONFIRMATION_DRIFT",
        message,
        hint="run `git memory review` again and confirm the current statements",
        details=details or None,
    )


def _checked_input(db: StateDB, owner: OwnerKeys, item: PrepareCandidate) -> CandidateInput:
    candidate = store.require_candidate(db, item.candidate_id, owner)
    if candidate.status != "quarantined" or candidate.kind != "entry":
        raise GitMemoryError(
            "GM_CANDIDATE_STATE_INVALID",
            f"candidate {item.candidate_id!r} is {candidate.status}, not a quarantined entry",
        )
    current = confirmed_assessments(db, candidate, item)
    refs = store.evidence_refs(db, item.candidate_id)
    payload = candidate.payload
    statements = tuple(
        StatementToRender(
            statement_id=sid,
            provenance_strength=a.provenance_strength,
            limitations=tuple(a.limitations),
            claim_support=confirmed_support(a.claim_support),
            citations=tuple(_cited(r.detail or {}) for r in refs if r.statement_id == sid),
        )
        for sid, a in sorted(current.items())
    )
    return CandidateInput(
        candidate_id=item.candidate_id,
        content=str(payload.get("content", "")),
        statements=statements,
        type=str(payload.get("type", "work_fact")),
        priority=int(payload.get("priority", 50)),
        confidence=str(payload.get("confidence", "medium")),
        scene=payload.get("scene"),
        action=str(payload.get("action", "store")),
        target_ids=tuple(payload.get("targetEntryIds", ())),
        scope=item.scope,
    )


def confirmed_assessments(
    db: StateDB, candidate: store.Candidate, item: PrepareCandidate
) -> dict[str, store.Assessment]:
    """The candidate's assessments by statement, once its revision and every statement's
    digests match what the human confirmed (`GM_REVISION_CONFLICT`, `GM_CONFIRMATION_DRIFT`)."""
    if candidate.revision != item.expected_revision:
        raise GitMemoryError(
            "GM_REVISION_CONFLICT",
            f"candidate {item.candidate_id!r} is at revision {candidate.revision}, "
            f"not {item.expected_revision}",
            hint="run `git memory review` again",
            details={"candidateId": item.candidate_id, "currentRevision": candidate.revision},
        )
    current = {a.statement_id: a for a in store.assessments(db, item.candidate_id)}
    _check_statements(item, current)
    return current


def _check_statements(item: PrepareCandidate, current: Mapping[str, store.Assessment]) -> None:
    asked = {s.statement_id: s for s in item.statements}
    if set(asked) != set(current):
        raise confirmation_drift(
            f"candidate {item.candidate_id!r}: the confirmed statements are not its current set",
            candidateId=item.candidate_id,
            missing=sorted(set(current) - set(asked)),
            unknown=sorted(set(asked) - set(current)),
        )
    for sid, statement in asked.items():
        stored = current[sid]
        if stored.claim_support == "drifted" or (
            statement.statement_text_digest != stored.statement_text_digest
            or statement.citations_digest != stored.citations_digest
        ):
            raise confirmation_drift(
                f"candidate {item.candidate_id!r} statement {sid!r} changed since review",
                candidateId=item.candidate_id,
                statementId=sid,
            )


def confirmed_support(stored: str) -> str:
    """What a statement's claim support becomes once the human confirmed it."""
    return "typed-fact" if stored == "typed-fact" else "human-confirmed"


def _cited(detail: dict[str, Any]) -> CitedEvidence:
    kind = str(detail.get("kind", ""))
    started = detail.get("started") or detail.get("occurredAt")
    day = None
    if isinstance(started, str):
        try:
            day = parse_timestamp(started).astimezone(UTC).date().isoformat()
        except ValueError:
            day = None
    return CitedEvidence(
        kind=kind,
        commit_hash=detail.get("commitHash") if kind == "commit" else None,
        path=detail.get("path") if kind == "path" else None,
        occurred=day if kind == "turn" else None,
    )


def assessment_rows(db: StateDB, items: Sequence[PrepareCandidate]) -> list[dict[str, Any]]:
    """The confirmed assessment documents a plan binds (support as after confirmation)."""
    return assessment_rows_for(db, [item.candidate_id for item in items])


def assessment_rows_for(db: StateDB, candidate_ids: Sequence[str]) -> list[dict[str, Any]]:
    """Assessment documents of these candidates, as a plan's `assessmentDigest` binds them."""
    rows: list[dict[str, Any]] = []
    for candidate_id in candidate_ids:
        candidate = store.require_candidate(db, candidate_id)
        for a in store.assessments(db, candidate_id):
            rows.append(
                {
                    "candidateId": candidate_id,
                    "candidateRevision": candidate.revision,
                    "statementId": a.statement_id,
                    "statementTextDigest": a.statement_text_digest,
                    "citationsDigest": a.citations_digest,
                    "provenanceStrength": a.provenance_strength,
                    "limitations": sorted(a.limitations),
                    "claimSupport": confirmed_support(a.claim_support),
                }
            )
    return rows


def _record_confirmation(db: StateDB, items: Sequence[PrepareCandidate]) -> None:
    for item in items:
        candidate = store.require_candidate(db, item.candidate_id)
        for a in store.assessments(db, item.candidate_id):
            if a.claim_support == "unverified":
                store.set_assessment(
                    db,
                    item.candidate_id,
                    store.Assessment(
                        statement_id=a.statement_id,
                        citations_digest=a.citations_digest,
                        provenance_strength=a.provenance_strength,
                        limitations=a.limitations,
                        claim_support="human-confirmed",
                        assessed_by="human",
                        statement_text_digest=a.statement_text_digest,
                        revision=candidate.revision,
                    ),
                )


def _render(worktree: Worktree, inputs: list[CandidateInput]) -> list[RenderedFile]:
    view = TreeView(
        memory_root=worktree.memory_root,
        existing=tree.existing_entries(worktree.root, worktree.memory_root),
        repository_identity=worktree.binding().public_repository_identity,
        commit_exists=lambda hex_id: commit_exists(worktree.repository, hex_id),
    )
    files = render_candidates(inputs, view)
    lint_gate(files, worktree)
    return files


def _planned(worktree: Worktree, files: Sequence[RenderedFile]) -> list[planning.PlannedFile]:
    """Bind each file to the blob OID of what its target holds now (read no-follow)."""
    planned = []
    for f in files:
        path = planning.check_target_path(f.target_path, worktree.memory_root)
        current = read_target(worktree.root, path)
        if current != f.old_content:
            raise GitMemoryError(
                "GM_PLAN_DRIFT",
                f"{path} changed while the plan was built",
                hint="run `git memory prepare` again",
                details={"driftedPath": path},
            )
        planned.append(bound_file(path, current, f.content))
    planning.check_sizes(planned)
    return planned


def bound_file(
    path: str, current: bytes | None, content: bytes, operation: PlanOperation = "write"
) -> planning.PlannedFile:
    """A planned file bound to the blob OID of what its target holds now (None: absent)."""
    return planning.PlannedFile(
        target_path=path,
        target_blob_hash=None if current is None else blob_oid(current),
        content=content,
        old_content=current,
        operation=operation,
    )


def build_plan(
    binding: RepositoryBinding,
    request: PrepareRequest,
    confirmed: list[dict[str, Any]],
    planned: Sequence[planning.PlannedFile],
    agent_files: list[str] | None = None,
) -> PromotionPlan:
    """A fresh plan binding the confirmed assessments and the planned files (and the agents'
    files it brings up to date)."""
    return PromotionPlan(
        plan_id=f"plan-{uuid.uuid4().hex}",
        owner=binding,
        candidate_ids=[item.candidate_id for item in request.candidates],
        assessment_digest=planning.assessment_digest(confirmed),
        per_file=[item.per_file() for item in planned],
        diff=planning.unified_diff(planned),
        agent_files=agent_files or None,
    )
