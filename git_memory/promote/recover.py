"""Journal recovery: finish or undo promotions a killed process left behind.

`git memory status` (through `counts`) and `git memory promote` call `resume_pending`: every
`applying` plan of this worktree is resumed (rolled forward file by file; a file that drifted
meanwhile rolls the plan back and voids it), and an applied plan whose index/projection step
was cut short is completed. Busy lock → nothing is done now (the holder is doing it).
"""

from __future__ import annotations

from typing import Any

from git_memory.errors import GitMemoryError
from git_memory.promote.apply import apply_plan, promotion_lock
from git_memory.repo.binding import Worktree
from git_memory.store import journal
from git_memory.store.db import Owner, StateDB


def resume_pending(worktree: Worktree, db: StateDB, owner: Owner) -> list[dict[str, str]]:
    """Resume every interrupted plan of the owner; returns `{planId, outcome}` per plan."""
    with db.read():
        pending = journal.plan_ids(db, owner, ("applying",))
        unfinished = [
            plan_id
            for plan_id in journal.plan_ids(db, owner, ("applied",))
            if journal.require_plan(db, plan_id).mutation_phase != "done"
        ]
    if not pending and not unfinished:
        return []
    outcomes: list[dict[str, str]] = []
    with promotion_lock(worktree.state_home) as acquired:
        if not acquired:
            return [{"planId": plan_id, "outcome": "busy"} for plan_id in pending]
        for plan_id in [*pending, *unfinished]:
            try:
                apply_plan(worktree, db, owner, plan_id)
                outcomes.append({"planId": plan_id, "outcome": "applied"})
            except GitMemoryError as exc:
                outcomes.append({"planId": plan_id, "outcome": f"failed ({exc.code})"})
    return outcomes


def counts(ctx: Any) -> dict[str, Any]:
    """Status contributor: resume interrupted plans, then count plans and list open ones."""
    from git_memory.promote.prepare import owner_of
    from git_memory.store.db import open_state

    worktree = ctx.worktree
    _binding, owner = owner_of(worktree)
    with open_state(worktree.state_home) as db:
        resumed = resume_pending(worktree, db, owner)
        with db.read():
            by_status = journal.plan_counts(db, owner)
            open_plans = {
                status: journal.plan_ids(db, owner, (status,)) for status in journal.OPEN_STATUSES
            }
    result: dict[str, Any] = dict(by_status)
    result["applyingPlanIds"] = open_plans["applying"]
    result["openPlans"] = [
        {"planId": plan_id, "status": status}
        for status, ids in open_plans.items()
        for plan_id in ids
    ]
    if resumed:
        result["resumed"] = resumed
    return result


def resume_others(worktree: Worktree, db: StateDB, owner: Owner, plan_id: str) -> None:
    """Under the promotion lock: resume interrupted plans other than `plan_id`."""
    with db.read():
        others = [p for p in journal.plan_ids(db, owner, ("applying",)) if p != plan_id]
    for other in others:
        try:
            apply_plan(worktree, db, owner, other)
        except GitMemoryError:
            continue  # voided during the resume; its status says why
