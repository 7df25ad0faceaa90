"""Stage a SkillCandidate@v1: echoed recall binding, memory context, target, SKILL.md, lint.

The candidate answers a recalled ExtractionTask (its taskId and binding are echoed) but does
not consume it: the same chunk can still be staged as entry drafts. Statements cite the
task's evidence catalog and are assessed by the host (`unverified`). The candidate goes
straight to quarantine for `git memory review --kind skill`; identical bytes replay.
"""

from __future__ import annotations

import unicodedata

from git_memory.contracts.candidate import SkillPayload
from git_memory.contracts.canonical import digest
from git_memory.contracts.host_records import RecallRecord
from git_memory.contracts.skill import SkillCandidate, SkillDocument, SkillTaskBinding
from git_memory.contracts.stage import AgentStage, SkillOutcome
from git_memory.errors import FormatError, GitMemoryError
from git_memory.extract import artifacts
from git_memory.extract.assess import CandidateRejected, assess_statements
from git_memory.extract.stage_drafts import evidence_refs_for, load_catalog
from git_memory.extract.staging import (
    AGENT_HOLDER,
    LEASE_MS,
    source_is_current,
    staged_candidates,
    submit_or_release,
)
from git_memory.formats.skill_md import Skill, parse_skill, serialize_skill
from git_memory.lint.engine import lint_bytes
from git_memory.skills.pin_checks import check_memory_context, check_target, drift, skill_path
from git_memory.store.candidates import (
    Assessment,
    Candidate,
    add_evidence_refs,
    insert_candidate,
    set_assessment,
)
from git_memory.store.db import StateDB
from git_memory.store.session import Workspace
from git_memory.store.tasks import claim_task, get_task, plan_task


def render_skill(skill: SkillDocument) -> str:
    """The canonical SKILL.md text (NFC) of a SkillDocument, validated by the format."""
    text = serialize_skill(Skill(name=skill.name, description=skill.description, body=skill.body))
    try:
        # Validated as stored: canonical JSON keeps every string NFC.
        return serialize_skill(parse_skill(unicodedata.normalize("NFC", text)))
    except FormatError as exc:
        raise GitMemoryError(
            "GM_SKILL_INVALID",
            f"the skill is not a valid SKILL.md: {exc.message}",
            hint="fix the skill body or description and stage again",
            details={"formatCode": exc.code},
        ) from exc


def lint_skill(name: str, text: str) -> None:
    """A SKILL.md with a blocking lint finding is refused before anything is stored."""
    blocking = [f for f in lint_bytes(skill_path(name), text.encode("utf-8")) if f.blocks]
    if blocking:
        first = blocking[0].to_json()
        raise GitMemoryError(
            "GM_LINT_BLOCKED",
            f"{skill_path(name)}:{first['line']}:{first['column']}: {first['code']} "
            f"{first['message']}",
            hint="remove secrets, session ids and private paths from the skill",
            details={"findings": [f.to_json() for f in blocking]},
        )


def _assess(candidate: SkillCandidate, record: RecallRecord) -> list[Assessment]:
    try:
        return assess_statements(candidate.statements, load_catalog(record))
    except CandidateRejected as refusal:
        raise GitMemoryError(
            "GM_NO_CITABLE_STATEMENTS",
            f"the skill cites evidence outside the task's catalog ({refusal.detail})",
            hint="cite only evidenceIds of the recalled task's evidenceCatalog",
            details={"reason": refusal.reason, "detail": refusal.detail},
        ) from refusal


def stage_skill(workspace: Workspace, candidate: SkillCandidate) -> AgentStage:
    """Check and quarantine one skill candidate; returns the AgentStage document."""
    record = artifacts.load_recall(workspace.worktree.state_home, candidate.task_id)
    if candidate.binding != record.task.binding:
        raise drift(
            f"the skill's binding differs from task {candidate.task_id!r}",
            reason="binding-echo",
        )
    if _already_staged(workspace, candidate):
        return _response(workspace, _submit(workspace, candidate, record, "", []))
    source_is_current(workspace, candidate.task_id, record.turns)
    check_memory_context(workspace, candidate.memory_context_digest)
    check_target(workspace.worktree, candidate.skill)
    document = render_skill(candidate.skill)
    lint_skill(candidate.skill.name, document)
    found = _assess(candidate, record)
    outcome = _submit(workspace, candidate, record, document, found)
    return _response(workspace, outcome)


def _task_id(candidate: SkillCandidate) -> str:
    return f"skill-{digest(candidate.to_json())}"


def _already_staged(workspace: Workspace, candidate: SkillCandidate) -> bool:
    """The same bytes were staged before: replay their outcome without re-checking."""
    stored = get_task(workspace.db, _task_id(candidate))
    return stored is not None and stored.status == "submitted"


def _submit(
    workspace: Workspace,
    candidate: SkillCandidate,
    record: RecallRecord,
    document: str,
    found: list[Assessment],
) -> SkillOutcome:
    response_digest = digest(candidate.to_json())
    task_id = _task_id(candidate)
    binding = SkillTaskBinding(
        extraction_task_id=candidate.task_id,
        memory_context_digest=candidate.memory_context_digest,
        name=candidate.skill.name,
        response_digest=response_digest,
    )
    plan_task(
        workspace.db,
        task_id=task_id,
        kind="skill",
        owner=workspace.owner,
        binding=binding.to_json(),
    )
    stored = get_task(workspace.db, task_id)
    token = None
    if stored is not None and stored.status != "submitted":
        token = claim_task(
            workspace.db, task_id, holder=AGENT_HOLDER, lease_ms=LEASE_MS
        ).claim_token
    result = submit_or_release(
        workspace,
        task_id,
        token,
        response_digest,
        lambda db, _task: _insert(
            workspace, db, candidate=candidate, record=record, document=document, found=found
        ).to_json(),
    )
    return SkillOutcome.model_validate(result.outcome)


def _insert(
    workspace: Workspace,
    db: StateDB,
    *,
    candidate: SkillCandidate,
    record: RecallRecord,
    document: str,
    found: list[Assessment],
) -> SkillOutcome:
    candidate_id = f"skill-{candidate.skill.name}-{digest(candidate.to_json())[:12]}"
    payload = SkillPayload(
        task_id=candidate.task_id,
        memory_context_digest=candidate.memory_context_digest,
        skill=candidate.skill,
        target_path=skill_path(candidate.skill.name),
        content=document,
        statements=candidate.statements,
    )
    insert_candidate(
        db,
        candidate_id=candidate_id,
        owner=workspace.owner,
        kind="skill",
        payload=payload.to_json(),
        content=f"{candidate.skill.name}: {candidate.skill.description}",
        task_id=candidate.task_id,
        status="quarantined",
    )
    refs = evidence_refs_for(record, candidate.statements)
    add_evidence_refs(db, candidate_id, refs, task_id=candidate.task_id)
    for assessment in found:
        set_assessment(db, candidate_id, assessment)
    return SkillOutcome(task_id=candidate.task_id, candidate_ids=[candidate_id])


def _response(workspace: Workspace, outcome: SkillOutcome) -> AgentStage:
    staged, items = staged_candidates(workspace, outcome.candidate_ids, "skill")
    return AgentStage(
        task_id=outcome.task_id,
        status="staged",
        no_op=False,
        candidates=staged,
        review_items=items,
        skill=True,
        next="ask the human to review the skill: `git memory review --kind skill`, then "
        "prepare and promote",
    )


def check_review(workspace: Workspace, candidates: list[Candidate]) -> None:
    """At review: every listed skill candidate must still match the memory context."""
    for candidate in candidates:
        if candidate.kind == "skill":
            payload = SkillPayload.model_validate(candidate.payload)
            check_memory_context(workspace, payload.memory_context_digest, candidate.candidate_id)
