"""Update/merge decisions: the draft absorbs its targets, keeping every statement.

Candidate targets are discarded and their statements (with evidence refs and assessments)
move into the draft; approved targets are named in the payload (`action`, `targetEntryIds`)
so the promotion plan rewrites those files under blob CAS and deprecates merged-away entries.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from git_memory.contracts.adjudication import Adjudication, PoolItem
from git_memory.contracts.candidate import EntryPayload
from git_memory.contracts.extraction import DraftStatement
from git_memory.store.candidates import (
    Candidate,
    add_evidence_refs,
    assessments,
    discard,
    evidence_refs,
    get_candidate,
    require_candidate,
    set_assessment,
    update_candidate,
)
from git_memory.store.db import StateDB
from git_memory.store.session import Workspace


class Stale(Exception):
    """The decisions were made against a pool that has changed since: the task goes stale.
    `details` become the `GM_TASK_STALE` error's details."""

    def __init__(self, reason: str, details: dict[str, Any]) -> None:
        super().__init__(reason)
        self.reason = reason
        self.details = details


def check_target_revision(db: StateDB, target: PoolItem) -> None:
    """Revision CAS of a candidate target against the pool revision the decision saw."""
    current = get_candidate(db, target.id)
    if (
        current is None
        or current.revision != target.revision
        or current.status not in ("draft", "quarantined")
    ):
        raise Stale("revision-cas-failed", {"target": target.id})


def merge_into_draft(
    workspace: Workspace,
    db: StateDB,
    draft: Candidate,
    decision: Adjudication,
    pool: dict[str, PoolItem],
) -> Candidate:
    """Apply one update/merge decision to `draft`; returns the quarantined draft."""
    payload = EntryPayload.model_validate(draft.payload)
    statements = list(payload.statements)
    approved: list[str] = []
    replaced: list[dict[str, str]] = list(payload.replaced_candidates or [])
    for target_id in decision.target_ids:
        target = pool[target_id]
        if target.source_kind == "approved":
            approved.append(target_id)
            continue
        taken = {s.statement_id for s in statements}
        moved, old_text = _absorb(workspace, db, draft, target, taken)
        statements += moved
        replaced.append({"candidateId": target_id, "content": old_text})
    fields = decision.merged_fields.to_json() if decision.merged_fields else {}
    if "occurred" in fields:
        fields["occurred"] = sorted(set(payload.occurred or []) | set(fields["occurred"]))
    merged = EntryPayload.model_validate(
        {
            **payload.to_json(),
            **fields,
            "statements": [s.to_json() for s in statements],
            **({"replacedCandidates": replaced} if replaced else {}),
        }
    )
    if approved:
        merged = merged.model_copy(update={"action": decision.action, "target_entry_ids": approved})
    return update_candidate(
        db,
        draft.candidate_id,
        expected_revision=draft.revision,
        status="quarantined",
        payload=merged.to_json(),
        content=merged.content,
        adjudication=decision.action,
    )


def _absorb(
    workspace: Workspace, db: StateDB, draft: Candidate, target: PoolItem, taken: set[str]
) -> tuple[list[DraftStatement], str]:
    """Move a candidate target's statements into the draft and discard the target; the
    statements moved and the target's text (review shows it beside the new one)."""
    check_target_revision(db, target)
    source = require_candidate(db, target.id, workspace.owner)
    renamed: dict[str, str] = {}
    moved = []
    for statement in EntryPayload.model_validate(source.payload).statements:
        new_id = _free_id(statement.statement_id, taken)
        taken.add(new_id)
        renamed[statement.statement_id] = new_id
        moved.append(statement.model_copy(update={"statement_id": new_id}))
    refs = [
        dataclasses.replace(ref, statement_id=renamed[ref.statement_id])
        for ref in evidence_refs(db, source.candidate_id)
        if ref.statement_id in renamed
    ]
    add_evidence_refs(db, draft.candidate_id, refs, task_id=draft.task_id)
    for assessment in assessments(db, source.candidate_id):
        if assessment.statement_id in renamed:
            set_assessment(
                db,
                draft.candidate_id,
                dataclasses.replace(assessment, statement_id=renamed[assessment.statement_id]),
            )
    discard(db, source.candidate_id, expected_revision=source.revision)
    return moved, str(source.payload.get("content", ""))


def _free_id(statement_id: str, taken: set[str]) -> str:
    if statement_id not in taken:
        return statement_id
    number = 2
    while f"{statement_id}-m{number}" in taken:
        number += 1
    return f"{statement_id}-m{number}"
