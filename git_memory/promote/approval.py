"""Who approved a plan, and how.

The approval binds to the exact `planDigest`: given as `--approve`/`approve`, or given by a
human who saw the diff (terminal prompt, MCP elicitation form). It is recorded in the
authorization log with `via`: `interactive` (terminal), `digest` (CLI `--approve`),
`elicitation` (the human accepted the form) or `agent` (an MCP agent passed the digest), and
over MCP with what became of the form (`detail.form`).

A human's no is final: when an MCP client can show forms the human is asked first, even when
the agent passed a digest. An explicit decline voids the plan and is stored, so no later
approval of it by any path is accepted (`GM_PLAN_DECLINED`); a new `prepare` makes a fresh
plan. A cancelled form (dismissed without a decision, as `claude -p` answers every form), or
one the client could not show, leaves the agent's digest as the approval.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from git_memory.contracts.extraction import OwnerKeys
from git_memory.errors import GitMemoryError
from git_memory.promote.apply import voided
from git_memory.promote.plan import PlannedFile, unified_diff
from git_memory.promote.writer import read_target
from git_memory.store import journal
from git_memory.store.db import StateDB

if TYPE_CHECKING:
    from git_memory.contracts.promotion import PromotionPlan
    from git_memory.contracts.promotion_ops import PromoteRequest
    from git_memory.repo.binding import Worktree
    from git_memory.store.journal import PlanRecord

# The human's answer to an approval form: `declined` is an explicit no (final), `cancelled`
# a form dismissed without a decision, `failed` a form the client could not show.
FormAnswer = Literal["approved", "declined", "cancelled", "failed"]
FormFn = Callable[[str, str], FormAnswer]
# What the agent is told when an MCP client has no forms at all.
UNSUPPORTED = "unsupported"


class ApprovalContext(Protocol):
    """What approval needs of the operation context (which lives above this package)."""

    @property
    def front_end(self) -> str: ...
    @property
    def via(self) -> str: ...
    @property
    def confirm(self) -> Callable[[str, str], bool] | None: ...
    @property
    def form(self) -> FormFn | None: ...
    @property
    def worktree(self) -> Worktree: ...


@dataclass(frozen=True)
class Approval:
    """How a plan was approved: the channel, and over MCP what became of the form."""

    via: str
    form: str | None = None

    def note(self) -> str | None:
        """What the agent is told when its digest applied the plan after a form."""
        if self.via != "agent" or self.form not in ("cancelled", "failed"):
            return None  # no form was shown, or the human approved in it
        return f"{_NO_ANSWER[self.form]}: the digest you passed approved the plan"


# Why no human answered over MCP, by `form`.
_NO_ANSWER = {
    "cancelled": "the approval form was cancelled without a decision",
    "failed": "the client could not show the approval form",
    UNSUPPORTED: "this client cannot show approval forms",
}


def decide(
    ctx: ApprovalContext,
    db: StateDB,
    request: PromoteRequest,
    record: PlanRecord,
    plan: PromotionPlan,
    *,
    shown_id: str | None = None,
) -> Approval | None:
    """The approval, or None when the plan needs no new approval (already approved,
    applying or applied); raises when approval is missing, wrong or declined. The question
    names the plan `shown_id` (its short id) at a terminal."""
    if journal.declined_at(db, record.plan_id) is not None:
        raise declined(record)
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
    if ctx.form is not None:
        # The human first: a digest the agent passed never stands in for their answer.
        answer = ctx.form(_summary(ctx, record, plan, None), _diff(ctx, record, plan))
        return _after_form(answer, ctx.via, db, request, record)
    if request.approve is not None:
        if ctx.front_end == "mcp":
            return Approval("agent", UNSUPPORTED)
        return Approval("digest")
    if ctx.confirm is None:
        raise _required(record, UNSUPPORTED if ctx.front_end == "mcp" else None)
    if not ctx.confirm(_summary(ctx, record, plan, shown_id), _diff(ctx, record, plan)):
        raise GitMemoryError("GM_APPROVAL_DECLINED", "the promotion plan was not approved")
    return Approval(ctx.via)


def _after_form(
    answer: FormAnswer, via: str, db: StateDB, request: PromoteRequest, record: PlanRecord
) -> Approval:
    """The human's answer in the form: a decline voids the plan, a cancel leaves the digest."""
    if answer == "approved":
        return Approval(via, answer)
    if answer == "declined":
        if journal.decline(db, record, via=via):
            raise declined(record)
        now = journal.require_plan(db, record.plan_id).status
        raise GitMemoryError(
            "GM_APPROVAL_DECLINED",
            f"the human declined plan {record.plan_id!r}, which another path had {now} meanwhile",
            details={"form": answer},
        )
    if request.approve is not None:
        return Approval("agent", answer)
    if answer == "failed":
        raise form_failed()
    raise _required(record, answer)


def form_failed() -> GitMemoryError:
    """`GM_MCP_ELICITATION_FAILED`: the client declared forms but could not show this one."""
    return GitMemoryError(
        "GM_MCP_ELICITATION_FAILED",
        "the client could not ask the human",
        hint="show the human the diff yourself and pass the digest they approved",
        details={"form": "failed"},
    )


def _required(record: PlanRecord, form: str | None) -> GitMemoryError:
    """`GM_APPROVAL_REQUIRED`; over MCP `details.form` says why no human answered."""
    hint = f"pass --approve {record.plan_digest} after reading the diff"
    if form is not None:
        hint = (
            f"{_NO_ANSWER[form]}: show the human the diff, and only if they approve, call"
            f" again with approve = {record.plan_digest}"
        )
    return GitMemoryError(
        "GM_APPROVAL_REQUIRED",
        f"plan {record.plan_id!r} needs approval",
        hint=hint,
        details={"form": form} if form else None,
    )


def declined(record: PlanRecord) -> GitMemoryError:
    """`GM_PLAN_DECLINED`: the human declined the plan; no path may approve it again."""
    return GitMemoryError(
        "GM_PLAN_DECLINED",
        f"the human declined plan {record.plan_id!r} in the approval form; it is void",
        hint="ask the human what to change, then prepare a new plan (`git memory prepare`)",
        details={"form": "declined"},
    )


def _summary(
    ctx: ApprovalContext, record: PlanRecord, plan: PromotionPlan, shown_id: str | None
) -> str:
    # An MCP client's human and agent see the whole id, the one the agent's tools carry.
    named = record.plan_id if ctx.front_end == "mcp" else shown_id or record.plan_id
    root = plan.owner.memory_root
    then = f"; then bring {', '.join(plan.agent_files)} up to date" if plan.agent_files else ""
    return (
        f"Promote plan {named}: {len(plan.per_file)} file(s) into {root}/"
        f" (and regenerate {root}/index.json{then})"
    )


def _diff(ctx: ApprovalContext, record: PlanRecord, plan: PromotionPlan) -> str:
    return fresh_diff(ctx.worktree.root, record, plan)


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


def approve(db: StateDB, owner: OwnerKeys, plan_id: str, approval: Approval) -> None:
    """generated → approved, with the authorization log entry, in one transaction.

    A plan the human declined meanwhile (another server's form) is refused here too."""
    with db.write():
        record = journal.require_plan(db, plan_id)
        if journal.declined_at(db, plan_id) is not None:
            raise declined(record)
        if not journal.transition(db, plan_id, expected=("generated",), status="approved"):
            return  # another process approved it meanwhile; apply decides what happens next
        detail = {"planId": plan_id}
        if approval.form is not None:
            detail["form"] = approval.form
        journal.record_authorization(
            db, owner, plan_digest=record.plan_digest, via=approval.via, detail=detail
        )
