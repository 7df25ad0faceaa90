"""`git memory prepare --request FILE|-`: confirmed candidates → a stored PromotionPlan."""

from __future__ import annotations

from git_memory.contracts.promotion import PrepareRequest, PromotionPlan
from git_memory.contracts.promotion_ops import PreparedPlan
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.promotion_kinds import PROMOTION_KINDS
from git_memory.ops.registry import spec
from git_memory.ops.short_ids import ShortIds
from git_memory.promote.prepare import prepare_plan
from git_memory.promote.prepare_memory import prepare_memory_plan
from git_memory.store.session import open_workspace


def prepare(ctx: OpContext, request: PrepareRequest) -> PreparedPlan:
    """Build a promotion plan from quarantined candidates you have reviewed.

    The request (PrepareRequest@v1) lists each candidate at its expected revision with the
    statementTextDigest and citationsDigest of every statement, exactly as `review` showed
    them: that match is the human confirmation (any difference: GM_CONFIRMATION_DRIFT, and
    nothing changes). The sanitized entry files are rendered, every byte is lint-gated
    (GM_LINT_BLOCKED: no plan) and bound to the current blob OID of its target. The plan is
    stored privately; apply it with `git memory promote --plan ID --approve PLAN_DIGEST`.
    """

    with open_workspace(ctx.worktree, sync=False) as workspace:
        if request.kind == "entry":
            plan = prepare_plan(workspace, request)
        else:  # rendered by the kind's own module
            plan = prepare_memory_plan(workspace, request, PROMOTION_KINDS)
    return prepared(plan)


def prepared(plan: PromotionPlan) -> PreparedPlan:
    """The answer for a stored plan: its digest, files, diff and the command that applies it."""
    digest = plan.plan_digest()
    return PreparedPlan(
        plan_id=plan.plan_id,
        plan_digest=digest,
        candidate_ids=plan.candidate_ids,
        assessment_digest=plan.assessment_digest,
        policy_version=plan.policy_version,
        per_file=plan.per_file,
        diff=plan.diff,
        next=f"git memory promote --plan {plan.plan_id} --approve {digest}",
        agent_files=list(plan.agent_files) if plan.agent_files else None,
    )


def render(response: PreparedPlan, ids: ShortIds) -> str:
    """The diff, then how to approve (the plan by its short id, approved by its digest)."""
    plan_id = ids.one("plan", response.plan_id)
    files = "\n".join(f"  {item.target_path}" for item in response.per_file)
    if response.agent_files:
        files += "\nthen brought up to date (the agents' files): " + ", ".join(response.agent_files)
    return (
        f"{response.diff}\nplan {plan_id} ({len(response.per_file)} file(s)):\n{files}\n"
        f"plan digest: {response.plan_digest}\n"
        f"apply with: git memory promote --plan {plan_id}   (asks after showing the diff)\n"
        f"or in a script: git memory promote --plan {plan_id} --approve {response.plan_digest}"
    )


OPERATION = Operation(
    spec=spec("prepare"),
    request_model=PrepareRequest,
    response_model=PreparedPlan,
    handler=prepare,
    render_text_with_ids=render,
)
