"""Journal recovery: find and finish promotions a killed process left behind.

`git memory promote` calls `resume_others` under the promotion lock: every other `applying`
plan of this worktree is resumed (rolled forward file by file; a file that drifted meanwhile
rolls the plan back and voids it) before its own plan is applied, and applying a plan that is
itself interrupted resumes it. `git memory status` only reads: `counts` reports each
interrupted plan with the command that resumes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from git_memory.contracts.extraction import OwnerKeys
from git_memory.errors import GitMemoryError
from git_memory.promote.apply import apply_plan
from git_memory.promote.kinds import PromotionKinds
from git_memory.store import journal
from git_memory.store.candidates import list_candidates
from git_memory.store.db import StateDB

if TYPE_CHECKING:
    from git_memory.store.session import Workspace


def interrupted(db: StateDB, owner: OwnerKeys) -> list[str]:
    """Plans of the owner a killed process left behind: `applying`, or `applied` with the
    index/projection step cut short. Call inside a read transaction."""
    unfinished = [
        plan_id
        for plan_id in journal.plan_ids(db, owner, ("applied",))
        if journal.require_plan(db, plan_id).mutation_phase != "done"
    ]
    return [*journal.plan_ids(db, owner, ("applying",)), *unfinished]


def counts(workspace: Workspace | None) -> dict[str, Any]:
    """Status contributor: count plans, list open ones and report interrupted ones (with
    the command that resumes each) without touching them: status never writes, and creates
    no state when none exists yet (`workspace` None)."""
    by_status: dict[str, int] = dict.fromkeys(journal.PLAN_STATUSES, 0)
    open_plans: dict[str, list[str]] = {status: [] for status in journal.OPEN_STATUSES}
    stopped: list[str] = []
    held: dict[str, int] = {}
    if workspace is not None:
        db, owner = workspace.db, workspace.owner
        with db.read():
            by_status = journal.plan_counts(db, owner)
            open_plans = {status: journal.plan_ids(db, owner, (status,)) for status in open_plans}
            stopped = interrupted(db, owner)
            held = _held(db, owner, [i for ids in open_plans.values() for i in ids])
    result: dict[str, Any] = dict(by_status)
    result["applyingPlanIds"] = open_plans["applying"]
    result["openPlans"] = [
        {"planId": plan_id, "status": status, "candidates": held.get(plan_id, 0)}
        for status, ids in open_plans.items()
        for plan_id in ids
    ]
    if stopped:
        result["interrupted"] = [
            {"planId": plan_id, "next": f"git memory promote --plan {plan_id}"}
            for plan_id in stopped
        ]
    return result


def _held(db: StateDB, owner: OwnerKeys, plan_ids: list[str]) -> dict[str, int]:
    """How many quarantined candidates each plan holds: confirmed, so review does not ask
    them again (a retirement plan holds entries, not candidates)."""
    waiting = {c.candidate_id for c in list_candidates(db, owner, statuses=("quarantined",))}
    return {
        plan_id: len(waiting.intersection(journal.require_plan(db, plan_id).candidate_ids))
        for plan_id in plan_ids
    }


def resume_others(workspace: Workspace, plan_id: str, kinds: PromotionKinds) -> None:
    """Under the promotion lock: resume interrupted plans other than `plan_id`."""
    db, owner = workspace.db, workspace.owner
    with db.read():
        others = [p for p in journal.plan_ids(db, owner, ("applying",)) if p != plan_id]
    for other in others:
        try:
            apply_plan(workspace, other, kinds)
        except GitMemoryError:
            continue  # voided during the resume; its status says why
