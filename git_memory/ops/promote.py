"""`git memory promote --plan ID [--approve PLAN_DIGEST]`: approve and apply a plan."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import click

from git_memory.assemble.in_step import UPDATE_COMMAND, assembled_providers
from git_memory.assemble.render import TARGET_FILES
from git_memory.contracts.assemble import AssembleRequest
from git_memory.contracts.promotion_ops import PromoteRequest, PromotionResult
from git_memory.errors import GitMemoryError, UsageError
from git_memory.ids import abbreviate_within, resolve
from git_memory.ops.assemble import assemble_providers
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.promotion_kinds import PROMOTION_KINDS
from git_memory.ops.registry import spec
from git_memory.ops.short_ids import ShortIds, namespace
from git_memory.paths import MEMORY_STATE_DB
from git_memory.promote import approval
from git_memory.promote.apply import apply_plan, busy, check_owner, load_plan, promotion_lock
from git_memory.promote.recover import counts, resume_others
from git_memory.store.journal import get_plan
from git_memory.store.session import open_workspace

if TYPE_CHECKING:
    from git_memory.contracts.extraction import OwnerKeys
    from git_memory.contracts.promotion import PromotionPlan
    from git_memory.repo.binding import Worktree
    from git_memory.store.db import StateDB


def promote(ctx: OpContext, request: PromoteRequest) -> PromotionResult:
    """Apply a promotion plan to the memory root of this worktree.

    Approval: on a terminal without --approve the diff is shown and you are asked; otherwise
    the exact planDigest is the approval (a different digest: GM_APPROVAL_MISMATCH). A plan the
    human declined in an MCP approval form is void: no approval of it is accepted
    (GM_PLAN_DECLINED); prepare a new one. The apply
    holds an exclusive lock, re-checks the owner, the candidates and every target's blob OID
    (a changed target voids the plan: GM_PLAN_DRIFT; a symlink: GM_SYMLINK_REFUSED), writes
    each file no-follow and atomically after journaling its intent, then marks the candidates
    promoted and regenerates index.json. Git is only read: nothing is staged or committed.
    Applying an applied plan again reports the same success.
    """
    worktree = ctx.worktree
    with open_workspace(worktree, sync=False) as workspace:
        db, owner = workspace.db, workspace.owner
        with db.read():
            plan_id = full_plan_id(db, owner, request.plan)
            record, plan = load_plan(db, plan_id, owner)
            shown = abbreviate_within([plan_id], namespace(db, owner, "plan"))[plan_id]
        check_owner(worktree, record, plan)
        # Ask the human before any lock or change (an MCP elicitation may re-run this).
        approved = approval.decide(ctx, db, request, record, plan, shown_id=shown)
        with promotion_lock(worktree.state_home) as acquired:
            if not acquired:
                raise busy()
            resume_others(workspace, plan_id, PROMOTION_KINDS)
            if approved is not None:
                approval.approve(db, owner, plan_id, approved)
            result = apply_plan(workspace, plan_id, PROMOTION_KINDS)
    if not result.replayed:
        result.notes += bring_up_to_date(worktree, plan)
    note = approved.note() if approved is not None else None
    return PromotionResult(
        plan_id=result.plan_id,
        plan_digest=result.plan_digest,
        replayed=result.replayed,
        resumed=result.resumed,
        files=result.files,
        created=result.created,
        regenerated_index=result.regenerated_index,
        candidate_ids=result.candidate_ids,
        approved_via=approved.via if approved is not None else None,
        notes=[*result.notes, note] if note else result.notes,
    )


def bring_up_to_date(worktree: Worktree, plan: PromotionPlan) -> list[str]:
    """Assemble the agents' files the approved plan lists, now that its memory files are
    written (docs/guide-context.md, "In step"); one line per file changed. A file that lost
    its block or its place in memory.assembleTargets since is left alone; a refusal (an edited
    projection, markers that cannot be trusted) is reported, the promotion stands."""
    if not plan.agent_files:
        return []
    listed = set(plan.agent_files)
    providers = [p for p in assembled_providers(worktree) if TARGET_FILES[p] in listed]
    if not providers:
        return []
    try:
        response = assemble_providers(worktree, providers, AssembleRequest())
    except GitMemoryError as error:
        return [
            f"  the agents' files were not brought up to date ({error.code}: {error.message}); "
            f"run: {UPDATE_COMMAND}"
        ]
    return [f"  {item.target.path}{UPDATED}" for item in response.providers if item.changed]


def full_plan_id(db: StateDB, owner: OwnerKeys, typed: str) -> str:
    """The owner's plan id that `typed` abbreviates (exit 2 when none or several)."""
    if get_plan(db, typed) is not None:
        return typed  # a whole id: loading it checks that it belongs to this worktree
    return resolve(
        typed,
        namespace(db, owner, "plan"),
        what="promotion plan",
        code="GM_PLAN_NOT_FOUND",
        listed_by="git memory status",
    )


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> dict[str, Any]:
    if not values.get("plan"):
        raise plan_required(ctx.worktree)
    # A plain document: the operation validates it, so a malformed digest is a
    # GM_REQUEST_INVALID like on every other front end, never an internal error.
    return {"plan": values["plan"], "approve": values.get("approve")}


def plan_required(worktree: Worktree) -> UsageError:
    """`GM_PLAN_REQUIRED`: promote was given no plan. Names the plans that wait (as status
    lists them) and where a plan comes from."""
    waiting = _waiting_plans(worktree)
    source = (
        "`git memory review` makes a plan of the candidates you confirm (and writes it when you"
        " answer y); `git memory status` lists the plans that wait"
    )
    if waiting:
        listed = ", ".join(f"{shown}{what}" for shown, what in waiting)
        hint = f"plans waiting: {listed}\nwrite one with: git memory promote --plan {waiting[0][0]}"
        hint += f"\n{source}"
    else:
        hint = f"no plan waits in this worktree: {source}"
    return UsageError(
        "GM_PLAN_REQUIRED",
        "promote needs --plan ID: the promotion plan to write",
        hint=hint,
        details={"waiting": [shown for shown, _ in waiting]},
    )


def _waiting_plans(worktree: Worktree) -> list[tuple[str, str]]:
    """(short id, what it holds) of each open plan of this worktree; none without state."""
    if not (worktree.state_home / MEMORY_STATE_DB).exists():
        return []  # nothing was ever prepared here, and asking creates no state
    with open_workspace(worktree, sync=False) as workspace:
        plans = counts(workspace)["openPlans"]
        shown = ShortIds(worktree, workspace).of("plan", [p["planId"] for p in plans])
    return [(shown[p["planId"]], _holds(p)) for p in plans]


def _holds(plan: dict[str, Any]) -> str:
    """What a waiting plan holds, as status says it (a retirement holds entries: nothing)."""
    if plan["status"] == "applying":
        return " (interrupted: this resumes it)"
    held = plan["candidates"]
    return f" ({held} confirmed candidate{'' if held == 1 else 's'})" if held else ""


UPDATED = " (brought up to date)"  # an agent's file the plan assembled
# What a person does after a promotion, in order: look, update the agents' files, commit.
SEE_NEW = ("git status", "see the new files (untracked, so `git diff` alone misses them)")
SEE_CHANGED = ("git diff", "see the changes")
AFTERCARE = (
    ("git memory assemble", "update your agents' files (CLAUDE.md, AGENTS.md, …)"),
    ("git add, git commit", "as usual: git memory never commits"),
)


def render(response: PromotionResult, ids: ShortIds) -> str:
    """What was written, and that committing is the user's step."""
    verb = "already applied" if response.replayed else "applied"
    lines = [f"plan {ids.one('plan', response.plan_id)} {verb}:"]
    new = set(response.created)
    lines += [f"  {path} ({'new' if path in new else 'changed'})" for path in response.files]
    if response.regenerated_index:
        lines.append(f"  {response.regenerated_index} (regenerated)")
    lines += response.notes
    # The plan brought the agents' files up to date itself: assembling again is not a step.
    in_step = any(note.endswith(UPDATED) for note in response.notes)
    steps = [SEE_NEW if new else SEE_CHANGED, *(AFTERCARE[1:] if in_step else AFTERCARE)]
    width = max(len(command) for command, _ in steps)
    lines.append("next:")
    lines += [f"  {command:<{width}}  {why}" for command, why in steps]
    return "\n".join(lines)


OPERATION = Operation(
    spec=spec("promote"),
    request_model=PromoteRequest,
    response_model=PromotionResult,
    handler=promote,
    cli_params=[
        click.Option(
            ["--plan"],
            metavar="ID",
            default=None,
            help="The plan id from prepare (any unique abbreviation).",
        ),
        click.Option(
            ["--approve"],
            metavar="PLAN_DIGEST",
            default=None,
            help="Approve by the plan's exact digest (no question asked).",
        ),
    ],
    from_cli=_from_cli,
    render_text_with_ids=render,
    mcp_annotations={"idempotentHint": True},
    mcp_description=(
        "Apply a promotion plan from memory_prepare to the memory root (no-follow, atomic, "
        "bound to the exact file contents by blob OID). When this client can show forms "
        "(elicitation), the human is asked here with the plan's summary and diff, first, even "
        "when you pass `approve`: their approval applies it, and their decline voids the plan "
        "for good (GM_PLAN_DECLINED: prepare anew only if they ask). Only when the form was "
        "cancelled or the client has no forms (the error's details.form says which) pass "
        "`approve` = the planDigest, and only after you showed the human the diff and they "
        "said yes. Nothing is committed: the human commits the files through their normal "
        "git flow."
    ),
)
