"""`consolidate --runner`: the consolidation task through an approved runner, then staged.

The runner receives exactly the canonical task bytes its RunnerExecutionPlan binds (the lease
is derived from when the task was first planned, so the same memory state gives the same
plan digest across invocations and `--approve-plan D` from a previous run still matches;
once a plan was delivered without a usable answer, the next attempt's lease differs, so a
retry is a new plan that needs its own approval).
Without approval nothing is sent: the pending plan is returned. The answer must be one
ConsolidationPatch echoing taskId and binding; it is staged like an agent's patch.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from git_memory.consolidate import task as tasks
from git_memory.consolidate.stage import stage_patch
from git_memory.consolidate.synthesis import why_none
from git_memory.contracts.canonical import canonical_json, sha256_hex
from git_memory.contracts.consolidation import ConsolidationPatch, ConsolidationTask
from git_memory.contracts.consolidation_ops import ConsolidateResult
from git_memory.contracts.extraction import Lease
from git_memory.contracts.runner import InputCoverage
from git_memory.errors import GitMemoryError
from git_memory.runners.plans import build_plan
from git_memory.runners.profiles import RunnerOptions
from git_memory.runners.runner import DeliveryApproval, Planned, ProcessRunner
from git_memory.runners.session import RunnerSession
from git_memory.store.authorization import delivery_state
from git_memory.store.tasks import get_task

if TYPE_CHECKING:
    from git_memory.contracts.consolidation_ops import ConsolidatePreviewRequest, ConsolidateRequest
    from git_memory.contracts.runner import RunnerExecutionPlan
    from git_memory.runners.session import Ask
    from git_memory.store.session import Workspace

# The sandboxed process answering one consolidation task with a ConsolidationPatch.
Consolidator = ProcessRunner[ConsolidationTask, ConsolidationPatch]

RUNNER_HOLDER = "git-memory-runner"
MAX_ATTEMPTS = 16


def _item(kind: str, source_id: str, revision: int | None, digest: str, text: str) -> Any:
    return InputCoverage(
        source_kind=kind,
        opaque_source_id=source_id,
        revision=revision,
        content_digest=digest,
        bytes=len(text.encode()),
        truncated=False,
    )


def _coverage(task: ConsolidationTask) -> list[Any]:
    """What the plan says is sent: entries, scenes, doctrine and the prompt, by digest."""
    items = [
        _item("approved-entry", e.entry_id, e.revision, e.content_digest, e.body)
        for e in task.entries
    ]
    items += [_item("scene", s.name, s.heat, s.content_digest, s.content) for s in task.scenes]
    if task.doctrine is not None:
        doctrine = task.doctrine
        items.append(_item("doctrine", "doctrine", None, doctrine.content_digest, doctrine.content))
    prompts = task.contract.prompts
    prompt_digest = sha256_hex(prompts.consolidation.encode())
    items.append(
        _item("prompt", prompts.prompt_version, None, prompt_digest, prompts.consolidation)
    )
    return items


def _leased(task: ConsolidationTask, created_at: int, attempt: int) -> ConsolidationTask:
    # Attempt n leases the (n+1)-th window after the task was planned: deterministic bytes
    # for the same attempt, new bytes (a new plan to approve) after a spent delivery.
    lease = Lease(holder=RUNNER_HOLDER, expires_at=created_at + (attempt + 1) * tasks.LEASE_MS)
    return task.model_copy(update={"lease": lease})


def _stdin(task: ConsolidationTask) -> bytes:
    return canonical_json(task.to_json()) + b"\n"


def _fresh_plan(
    workspace: Workspace, runner: Consolidator, task: ConsolidationTask
) -> Planned[ConsolidationTask]:
    """The stored plan of the first attempt (leased task, stdin) never delivered.

    A plan digest is delivered at most once; after a failed or refused answer the next
    invocation needs new bytes, hence a new plan and a new approval.
    """

    tasks.plan(workspace, task)
    stored = get_task(workspace.db, task.task_id)
    assert stored is not None
    for attempt in range(MAX_ATTEMPTS):
        leased = _leased(task, stored.created_at, attempt)
        digest = build_plan(
            runner.session.profile,
            task_kind="consolidation",
            task_id=task.task_id,
            stdin=_stdin(leased),
            coverage=_coverage(leased),
        ).plan_digest
        if delivery_state(workspace.db, str(digest)) is None:
            (planned,) = runner.plan([leased])
            return planned
    raise GitMemoryError(
        "GM_RUNNER_ALREADY_DELIVERED",
        f"task {task.task_id} was sent {MAX_ATTEMPTS} times without a usable answer",
        hint="answer it in the conversation with `git memory synthesize` instead",
    )


def consolidate(
    workspace: Workspace, request: ConsolidateRequest | ConsolidatePreviewRequest, ask: Ask | None
) -> ConsolidateResult:
    """Plan (and with approval, run and stage) the consolidation task through a runner."""
    mode: tasks.Mode = "full" if request.full else "incremental"
    built = tasks.build(workspace, mode, now_ms=int(time.time() * 1000))
    note = why_none(built, request.if_due)
    if note is not None:
        return ConsolidateResult(status=_status_of(built), entry_count=built.selected, note=note)
    assert built.task is not None
    approval = DeliveryApproval(
        getattr(request, "approve_plan", None), getattr(request, "approve_manifest", None), ask
    )
    runner = Consolidator(
        _session(workspace, request),
        "consolidation",
        ConsolidationPatch,
        _stdin,
        _coverage,
        approval,
    )
    planned = _fresh_plan(workspace, runner, built.task)
    try:
        ((plan, patch),) = runner.deliver([planned])
    except GitMemoryError as exc:
        if exc.code != "GM_APPROVAL_REQUIRED":
            raise
        return ConsolidateResult(
            status="approval-required",
            task_id=planned.task.task_id,
            entry_count=built.selected,
            plans=[planned.plan.to_json()],
            note=f"approve with --approve-plan {planned.plan.plan_digest}",
        )
    return _stage(workspace, plan, patch, count=built.selected)


def _session(
    workspace: Workspace, request: ConsolidateRequest | ConsolidatePreviewRequest
) -> RunnerSession:
    options = RunnerOptions(
        request.runner,
        command=getattr(request, "runner_command", None),
        model=request.model,
        endpoint=request.endpoint,
    )
    session = RunnerSession.open(workspace.worktree, options, workspace.db, workspace.owner)
    if not session.needs_approval:
        raise GitMemoryError(
            "GM_RUNNER_KIND_UNSUPPORTED",
            "the builtin runner extracts typed facts only; it cannot consolidate",
            hint="use `git memory synthesize` (the agent answers) or a model runner",
        )
    return session


def _status_of(built: tasks.Built) -> Any:
    if built.state.pending_run_id is not None:
        return "pending-run"
    return "nothing-new" if built.selected == 0 else "not-due"


def _stage(
    workspace: Workspace, plan: RunnerExecutionPlan, patch: ConsolidationPatch, *, count: int
) -> ConsolidateResult:
    """Stage the runner's validated patch like an agent's."""
    staged = stage_patch(workspace, patch)
    return ConsolidateResult(
        status="staged",
        task_id=patch.task_id,
        entry_count=count,
        plans=[plan.to_json()],
        authorized=True,
        stage=staged.to_json(),
        note=staged.next,
    )
