"""`git memory extract --runner`: the agent-native tasks, answered by a restricted runner.

Selection, chunks and tasks come from the agent-native flow (`extract.recall_flow`), and the
answers go through the same staging (`stage_drafts`, `stage_adjudication`), so a runner's
answer is held to exactly the rules an agent's is. Resuming is re-running: pending
adjudication tasks are delivered first, then new extraction tasks. The stdin of a task is its
canonical JSON with a fixed lease, so the same task plans to the same digest in a later run
and an approval given after a preview still matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from git_memory import output
from git_memory.contracts.canonical import canonical_json
from git_memory.contracts.extraction import MemoryExtractionRequest
from git_memory.contracts.runner import RunnerExecutionPlan
from git_memory.runners.answer import validate_answer
from git_memory.runners.coverage import coverage_of
from git_memory.runners.profiles import RunnerOptions
from git_memory.runners.session import Ask, RunnerSession

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree
    from git_memory.store.session import Workspace

RUNNER_LEASE = {"holder": "git-memory-runner", "expiresAt": 0}


@dataclass
class BatchOutcome:
    """What one run did: tasks answered per kind and the candidates it left quarantined."""

    extracted: list[str] = field(default_factory=list)
    adjudicated: list[str] = field(default_factory=list)
    quarantined: list[str] = field(default_factory=list)
    pending_plans: list[dict[str, Any]] = field(default_factory=list)
    # The builtin runner reports its whole selection: sessions read, sessions left out by
    # reason, and the pending tasks a `--limit` left for the next run.
    sessions: int = 0
    skipped: list[tuple[str, int]] = field(default_factory=list)
    left: int = 0
    # Per session (session key, why): left out of the window, or read and yielding nothing.
    session_notes: list[tuple[str, str]] = field(default_factory=list)

    def add(self, other: BatchOutcome) -> None:
        """Count `other` (a later window's run) into this outcome."""
        self.extracted += other.extracted
        self.adjudicated += other.adjudicated
        self.quarantined += other.quarantined
        self.pending_plans += other.pending_plans
        self.sessions += other.sessions
        reasons = dict(self.skipped)
        for reason, count in other.skipped:
            reasons[reason] = reasons.get(reason, 0) + count
        self.skipped = list(reasons.items())
        self.left = other.left
        self.session_notes += other.session_notes


def task_stdin(task: dict[str, Any]) -> bytes:
    """The exact bytes a runner receives for `task` (lease fixed: it means nothing there)."""
    return canonical_json({**task, "lease": RUNNER_LEASE})


def run_batch(
    worktree: Worktree,
    options: RunnerOptions,
    request: MemoryExtractionRequest | None,
    *,
    limit: int | None = 1,
    approve_plan: str | None = None,
    approve_manifest: str | None = None,
    ask: Ask | None = None,
) -> BatchOutcome:
    """Deliver pending adjudications, else the next extraction tasks; stage every answer.

    The builtin runner takes every pending task of the window (`limit=None`) or the first
    `limit` of them."""
    from git_memory.store.session import open_workspace

    if options.name == "builtin":
        return _run_builtin(worktree, request, limit)
    with open_workspace(worktree) as workspace:
        outcome = BatchOutcome()
        limit = limit or 1
        session = RunnerSession.open(worktree, options, workspace.db, workspace.owner)
        approvals = {"approve_plan": approve_plan, "approve_manifest": approve_manifest, "ask": ask}
        adjudications = _pending_adjudications(workspace)
        if not adjudications and request is not None:
            extraction = _next_extractions(worktree, request, limit)
            _deliver(
                session,
                workspace,
                "extraction",
                tasks=extraction,
                approvals=approvals,
                outcome=outcome,
            )
            adjudications = _pending_adjudications(workspace)
            approvals = {"approve_plan": None, "approve_manifest": None, "ask": ask}
        _deliver(
            session,
            workspace,
            "adjudication",
            tasks=adjudications,
            approvals=approvals,
            outcome=outcome,
        )
        return outcome


def _run_builtin(
    worktree: Worktree, request: MemoryExtractionRequest | None, limit: int | None
) -> BatchOutcome:
    from git_memory.extract.recall_flow import pending_tasks
    from git_memory.runners.builtin.flow import run_builtin

    outcome = BatchOutcome()
    if request is None:
        return outcome
    workspace, selection, pending = pending_tasks(worktree, request, capped=False)
    taken = pending if limit is None else pending[:limit]
    outcome.sessions = selection.matched_sessions
    outcome.skipped = list(selection.skipped)
    outcome.session_notes = list(selection.skipped_sessions)
    outcome.left = len(pending) - len(taken)
    with workspace:
        run_builtin(workspace, [p.task.to_json() for p in taken], outcome)
    return outcome


def _next_extractions(
    worktree: Worktree, request: MemoryExtractionRequest, limit: int
) -> list[dict[str, Any]]:
    from git_memory.contracts.requests import RecallRequest
    from git_memory.extract.recall_flow import recall

    recalled = recall(worktree, RecallRequest(request=request, limit=limit))
    return [task.to_json() for task in recalled.tasks]


def _pending_adjudications(workspace: Workspace) -> list[dict[str, Any]]:
    from git_memory.extract import artifacts
    from git_memory.store.tasks import list_tasks

    rows = list_tasks(workspace.db, workspace.owner, kind="adjudication", status="pending")
    home = workspace.worktree.state_home
    return [artifacts.load_adjudication(home, row.task_id).to_json() for row in rows]


def _deliver(
    session: RunnerSession,
    workspace: Workspace,
    kind: str,
    *,
    tasks: list[dict[str, Any]],
    approvals: dict[str, Any],
    outcome: BatchOutcome,
) -> None:
    if not tasks:
        return
    stdin = {task["taskId"]: task_stdin(task) for task in tasks}
    plans = [
        session.plan(kind, task["taskId"], stdin[task["taskId"]], coverage_of(kind, task))
        for task in tasks
    ]
    by_id = {task["taskId"]: task for task in tasks}
    approved = session.approve(plans, **approvals)
    with output.progress(f"{kind} via {session.profile.name}", len(approved)) as bar:
        for plan in approved:
            answer = session.run(plan, stdin[plan.task_id])
            _stage(workspace, kind, by_id[plan.task_id], answer=answer, plan=plan, outcome=outcome)
            bar.advance()


def _stage(
    workspace: Workspace,
    kind: str,
    task: dict[str, Any],
    *,
    answer: bytes,
    plan: RunnerExecutionPlan,
    outcome: BatchOutcome,
) -> None:
    from git_memory.contracts.adjudication import AdjudicationResult
    from git_memory.contracts.extraction import CandidateDraftBatch

    if kind == "extraction":
        from git_memory.extract.stage_drafts import stage_drafts

        batch = validate_answer(
            answer, CandidateDraftBatch, task_id=task["taskId"], binding=task["binding"]
        )
        stage_drafts(workspace, batch)
        outcome.extracted.append(plan.task_id)
        return
    from git_memory.extract.adjudicate import stage_adjudication

    result = validate_answer(
        answer, AdjudicationResult, task_id=task["taskId"], binding=task["binding"]
    )
    staged = stage_adjudication(workspace, result)
    outcome.adjudicated.append(plan.task_id)
    outcome.quarantined += [d.candidate_id for d in staged.decisions if d.status == "quarantined"]


def preview_batch(
    worktree: Worktree, options: RunnerOptions, request: MemoryExtractionRequest, *, limit: int = 1
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Store the pending plans the next run would need approved, and send nothing.

    The plans carry digests, byte counts and opaque coverage only, never transcript text;
    approving and delivering them stays a CLI step (`--approve-plan` / `--approve-manifest`).
    """
    from git_memory.store.session import open_workspace

    with open_workspace(worktree) as workspace:
        session = RunnerSession.open(worktree, options, workspace.db, workspace.owner)
        kind, tasks = "adjudication", _pending_adjudications(workspace)
        if not tasks:
            kind, tasks = "extraction", _next_extractions(worktree, request, limit)
        pending = [
            session.plan(kind, task["taskId"], task_stdin(task), coverage_of(kind, task))
            for task in tasks
        ]
        manifest = session.manifest(pending) if len(pending) > 1 else None
        return [plan.to_json() for plan in pending], (manifest.to_json() if manifest else None)
