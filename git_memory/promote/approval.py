"""Who approved a plan, and how.

The approval binds to the exact `planDigest`: given as `--approve`/`approve`, or given by a
human who saw the diff (terminal prompt, MCP elicitation). It is recorded in the
authorization log with `via`: `interactive`, `digest`, `elicitation` or `agent`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from git_memory.contracts.extraction import OwnerKeys
from git_memory.errors import GitMemoryError
from git_memory.promote.plan import PlannedFile, unified_diff
from git_memory.promote.writer import read_target
from git_memory.store import journal
from git_memory.store.db import StateDB

if TYPE_CHECKING:
    from git_memory.contracts.promotion import PromotionPlan
    from git_memory.contracts.promotion_ops import PromoteRequest
    from git_memory.repo.binding import Worktree
    from git_memory.store.journal import PlanRecord


class ApprovalContext(Protocol):
    """What approval needs of the operation context (which lives above this package)."""

    @property
    def front_end(self) -> str: ...
    @property
    def via(self) -> str: ...
    @property
    def confirm(self) -> Callable[[str, str], bool] | None: ...
    @property
    def worktree(self) -> Worktree: ...


def decide(
    ctx: ApprovalContext,
    request: PromoteRequest,
    record: PlanRecord,
    plan: PromotionPlan,
    *,
    shown_id: str | None = None,
) -> str | None:
    """The approval channel, or None when the plan needs no new approval (already approved,
    applying or applied); raises when approval is missing, wrong or declined. The question
    names the plan `shown_id` (its short id) at a terminal."""
    from git_memory.promote.apply import voided

    if record.status == "voided":
        raise voided(record)
    if request.approve is not None and request.approve != record.plan_digest:
        raise GitMemoryError(
            "GM_APPROVAL_MISMATCH",
            f"--approve does not match the digest of plan {record.plan_id!r}",
            hint="approve exactly the planDigest that `git memory prepare` printed",
        )
    if record.status != "generated":
        return None
    if request.approve is not None:
        return "agent" if ctx.front_end == "mcp" else "digest"
    if ctx.confirm is None:
        raise GitMemoryError(
            "GM_APPROVAL_REQUIRED",
            f"plan {record.plan_id!r} needs approval",
            hint=f"pass --approve {record.plan_digest} after reading the diff",
        )
    summary = (
        # An MCP client's human and agent see the whole id, the one the agent's tools carry.
        f"Promote plan {record.plan_id if ctx.front_end == 'mcp' else shown_id or record.plan_id}: "
        f"{len(plan.per_file)} file(s) into {plan.owner.memory_root}/"
        f" (and regenerate {plan.owner.memory_root}/index.json)"
    )
    if not ctx.confirm(summary, fresh_diff(ctx.worktree.root, record, plan)):
        raise GitMemoryError("GM_APPROVAL_DECLINED", "the promotion plan was not approved")
    return ctx.via


def fresh_diff(root: Path, record: PlanRecord, plan: PromotionPlan) -> str:
    """The diff recomputed from the stored bytes and the files as they are now, so what the
    human reads is exactly what would be written (the stored diff is not digest-bound)."""
    contents = {f.target_path: f.content for f in record.files}
    files = [
        PlannedFile(
            item.target_path,
            item.target_blob_hash,
            contents[item.target_path],
            read_target(root, item.target_path),
            operation=item.operation,
        )
        for item in plan.per_file
    ]
    return unified_diff(files)


def approve(db: StateDB, owner: OwnerKeys, plan_id: str, via: str) -> None:
    """generated → approved, with the authorization log entry, in one transaction."""
    with db.write():
        record = journal.require_plan(db, plan_id)
        if not journal.transition(db, plan_id, expected=("generated",), status="approved"):
            return  # another process approved it meanwhile; apply decides what happens next
        journal.record_authorization(
            db, owner, plan_digest=record.plan_digest, via=via, detail={"planId": plan_id}
        )
