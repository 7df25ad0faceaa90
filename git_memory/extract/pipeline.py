"""`git memory extract --runner`: recall → deliver → stage, through a `Runner`.

Selection, chunks and tasks come from the agent-native flow (`extract.recall_flow`), and the
answers go through the same staging (`stage_drafts`, `stage_adjudication`), so a runner's
answer is held to exactly the rules an agent's is. The builtin runner answers in process
(`extract.builtin.runner`); a model runner is the sandboxed process behind approved plans
(`runners.runner.ProcessRunner`). Resuming is re-running: pending adjudication tasks are
delivered first, then new extraction tasks. The stdin of a task is its canonical JSON with a
fixed lease, so the same task plans to the same digest in a later run and an approval given
after a preview still matches.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from git_memory.contracts.adjudication import AdjudicationResult, AdjudicationTask
from git_memory.contracts.canonical import canonical_json
from git_memory.contracts.extraction import (
    CandidateDraftBatch,
    ExtractionTask,
    MemoryExtractionRequest,
)
from git_memory.contracts.runner import AuthorizationManifest, RunnerExecutionPlan
from git_memory.contracts.stage import DraftsOutcome
from git_memory.extract import artifacts
from git_memory.extract.adjudicate import stage_adjudication
from git_memory.extract.builtin.renderers import BuiltinFact
from git_memory.extract.builtin.runner import (
    BuiltinAdjudicator,
    BuiltinDrafts,
    BuiltinExtractor,
    find_facts,
    session_notes,
)
from git_memory.extract.builtin.window import WindowFacts, place_facts
from git_memory.extract.coverage import adjudication_coverage, extraction_coverage
from git_memory.extract.quotes import TurnSource
from git_memory.extract.recall_flow import pending_tasks, plan_sessions, select_window
from git_memory.extract.select import WindowSelection
from git_memory.extract.stage_drafts import stage_drafts
from git_memory.extract.tasks import PlannedTask, replayed_turns
from git_memory.runners.profiles import RunnerOptions
from git_memory.runners.runner import DeliveryApproval, ProcessRunner, Runner
from git_memory.runners.session import RunnerSession
from git_memory.sessions.query import program_sessions
from git_memory.store.offers import Corroboration, record_offers
from git_memory.store.session import Workspace
from git_memory.store.tasks import list_tasks

# Nothing approved: a model runner raises GM_APPROVAL_REQUIRED with its pending plans.
NO_APPROVAL = DeliveryApproval()
RUNNER_LEASE = {"holder": "git-memory-runner", "expiresAt": 0}


@dataclass
class BatchOutcome:
    """What one run did: tasks answered per kind and the candidates it left quarantined."""

    extracted: list[str] = field(default_factory=list)
    adjudicated: list[str] = field(default_factory=list)
    quarantined: list[str] = field(default_factory=list)
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
        self.sessions += other.sessions
        reasons = dict(self.skipped)
        for reason, count in other.skipped:
            reasons[reason] = reasons.get(reason, 0) + count
        self.skipped = list(reasons.items())
        self.left = other.left
        self.session_notes += other.session_notes


def task_stdin(task: ExtractionTask | AdjudicationTask) -> bytes:
    """The exact bytes a runner receives for `task` (lease fixed: it means nothing there)."""
    return canonical_json({**task.to_json(), "lease": RUNNER_LEASE})


def run_batch(
    workspace: Workspace,
    options: RunnerOptions,
    request: MemoryExtractionRequest | None,
    *,
    limit: int | None = 1,
    approval: DeliveryApproval = NO_APPROVAL,
) -> BatchOutcome:
    """Deliver pending adjudications, else the next extraction tasks; stage every answer.

    The builtin runner takes every pending task of the window (`limit=None`) or the first
    `limit` of them."""
    if options.name == "builtin":
        return _run_builtin(workspace, request, limit)
    outcome = BatchOutcome()
    session = RunnerSession.open(workspace.worktree, options, workspace.db, workspace.owner)
    adjudications = _pending_adjudications(workspace)
    if not adjudications and request is not None:
        tasks = _next_extractions(workspace, request, limit or 1)
        _extract(workspace, _extractor(session, approval), tasks, outcome)
        adjudications = _pending_adjudications(workspace)
        approval = DeliveryApproval(ask=approval.ask)
    _adjudicate(workspace, _adjudicator(session, approval), adjudications, outcome)
    return outcome


def _extract(
    workspace: Workspace,
    extractor: Runner[ExtractionTask, CandidateDraftBatch | BuiltinDrafts],
    tasks: Sequence[ExtractionTask],
    outcome: BatchOutcome,
    *,
    adjudicator: Runner[AdjudicationTask, AdjudicationResult] | None = None,
) -> None:
    """Stage each extraction answer; with `adjudicator`, the adjudication each one opens is
    answered and staged before the next extraction answer."""
    for answer in extractor.answer(tasks):
        adjudication = _stage_drafts(workspace, answer, outcome)
        if adjudicator is not None and adjudication is not None:
            _adjudicate(workspace, adjudicator, [adjudication], outcome)


def _adjudicate(
    workspace: Workspace,
    adjudicator: Runner[AdjudicationTask, AdjudicationResult],
    tasks: Sequence[AdjudicationTask],
    outcome: BatchOutcome,
) -> None:
    for result in adjudicator.answer(tasks):
        _stage_result(workspace, result, outcome)


def _extractor(
    session: RunnerSession, approval: DeliveryApproval = NO_APPROVAL
) -> ProcessRunner[ExtractionTask, CandidateDraftBatch]:
    return ProcessRunner(
        session, "extraction", CandidateDraftBatch, task_stdin, extraction_coverage, approval
    )


def _adjudicator(
    session: RunnerSession, approval: DeliveryApproval = NO_APPROVAL
) -> ProcessRunner[AdjudicationTask, AdjudicationResult]:
    return ProcessRunner(
        session, "adjudication", AdjudicationResult, task_stdin, adjudication_coverage, approval
    )


def _run_builtin(
    workspace: Workspace, request: MemoryExtractionRequest | None, limit: int | None
) -> BatchOutcome:
    """Read the window's sessions, find what they show, and answer the tasks of the chunks
    that hold it: a chunk with nothing new to show gets no task (`builtin_tasks`)."""
    outcome = BatchOutcome()
    if request is None:
        return outcome
    moment = time.time()
    selection = select_window(workspace, request, now=moment, capped=False)
    keys = [session.session_key for session in selection.sessions]
    source = TurnSource(selection.records, program_sessions(workspace.worktree, keys))
    found, tally = find_facts(workspace, selection.sessions, source.programs)
    pending, placed = builtin_tasks(workspace, selection, found, moment)
    taken = pending if limit is None else pending[:limit]
    outcome.sessions = selection.matched_sessions
    outcome.skipped = list(selection.skipped)
    outcome.session_notes = list(selection.skipped_sessions)
    outcome.left = len(pending) - len(taken)
    records = {planned.task.task_id: planned.host_record() for planned in taken}
    extractor = BuiltinExtractor(workspace, records, source, placed)
    tasks = [planned.task for planned in taken]
    # One writer lock for the whole staging (each task still commits on its own): taking
    # the lock for each of their transactions cost more than the transactions.
    with workspace.db.locked():
        _extract(workspace, extractor, tasks, outcome, adjudicator=BuiltinAdjudicator())
    added = {
        p.session_key
        for p in taken
        if any(c.startswith(p.task.task_id) for c in outcome.quarantined)
    }
    outcome.session_notes += session_notes(keys, tally, added, source.programs)
    return outcome


def builtin_tasks(
    workspace: Workspace, selection: WindowSelection, found: WindowFacts, moment: float
) -> tuple[list[PlannedTask], dict[str, list[BuiltinFact]]]:
    """The pending tasks that hold the window's new memories, and the facts each proposes.

    Only the sessions a memory's occurrence cites are chunked: the first occurrence's, then,
    for a memory whose chunks have no room or no pending task, the next one's."""
    memories = found.memories
    chunked: set[str] = set()
    pending: dict[str, PlannedTask] = {}
    task_of_turn: dict[str, str] = {}
    placed: dict[str, list[BuiltinFact]] = {}
    wanted = set(found.sessions())
    # Planned in rounds, each round a few sessions: which turns replay an earlier session's
    # is a question about the whole selection, answered once.
    replayed = replayed_turns(selection.sessions)
    while wanted - chunked:
        fresh = wanted - chunked
        chunked |= fresh
        planning = plan_sessions(
            workspace, selection, moment, fresh, save_records=False, replayed=replayed
        )
        for task in planning:
            pending[task.task.task_id] = task
            task_of_turn.update((t.turn_key, task.task.task_id) for t in task.turns)
        placed = place_facts(memories, task_of_turn)
        held = {f.key for facts in placed.values() for f in facts}
        wanted |= {_next_session(m, chunked) for m in memories if m[0].key not in held}
        wanted.discard("")
    return [task for task_id, task in pending.items() if placed.get(task_id)], placed


def _next_session(occurrences: Sequence[BuiltinFact], chunked: set[str]) -> str:
    """The first session of a memory's occurrences not chunked yet ("" when none is left)."""
    sessions = occurrences[0].sessions
    return next((s for s in sessions if s not in chunked), "")


def _next_extractions(
    workspace: Workspace, request: MemoryExtractionRequest, limit: int
) -> list[ExtractionTask]:
    _, pending = pending_tasks(workspace, request)
    return [planned.task for planned in pending[:limit]]


def _pending_adjudications(workspace: Workspace) -> list[AdjudicationTask]:
    rows = list_tasks(workspace.db, workspace.owner, kind="adjudication", status="pending")
    home = workspace.worktree.state_home
    return [artifacts.load_adjudication(home, row.task_id) for row in rows]


def _stage_drafts(
    workspace: Workspace, answer: CandidateDraftBatch | BuiltinDrafts, outcome: BatchOutcome
) -> AdjudicationTask | None:
    """Stage one extraction answer; the adjudication task it opened, if any."""
    if isinstance(answer, BuiltinDrafts):
        batch = answer.batch
        if batch.candidates:  # what its candidates cite is kept; an empty answer needs none
            artifacts.save_recall(workspace.worktree.state_home, answer.record)
        staged = stage_drafts(
            workspace,
            batch,
            claim_support=answer.claim_support,
            turns=answer.turns,
            record=answer.record,
        )
        _keep_corroboration(workspace, staged, answer.corroborations, len(batch.candidates))
    else:
        batch = answer
        staged = stage_drafts(workspace, batch)
    outcome.extracted.append(batch.task_id)
    return staged.adjudication_task


def _keep_corroboration(
    workspace: Workspace, staged: DraftsOutcome, found: Mapping[int, Corroboration], drafted: int
) -> None:
    """Keep with each staged candidate what corroborates it; it waits until an extract run
    offers it for review (`store/offers.py`)."""
    refused = {item.candidate for item in staged.rejected}
    numbers = [n for n in range(1, drafted + 1) if n not in refused]
    rows = [
        (candidate_id, found[number])
        for number, candidate_id in zip(numbers, staged.candidate_ids, strict=True)
        if number in found
    ]
    if rows:
        record_offers(workspace.db, workspace.owner, rows)


def _stage_result(workspace: Workspace, result: AdjudicationResult, outcome: BatchOutcome) -> None:
    staged = stage_adjudication(workspace, result)
    outcome.adjudicated.append(result.task_id)
    outcome.quarantined += [d.candidate_id for d in staged.decisions if d.status == "quarantined"]


def preview_batch(
    workspace: Workspace,
    options: RunnerOptions,
    request: MemoryExtractionRequest,
    *,
    limit: int = 1,
) -> tuple[list[RunnerExecutionPlan], AuthorizationManifest | None]:
    """Store the pending plans the next run would need approved, and send nothing.

    The plans carry digests, byte counts and opaque coverage only, never transcript text;
    approving and delivering them stays a CLI step (`--approve-plan` / `--approve-manifest`).
    """
    session = RunnerSession.open(workspace.worktree, options, workspace.db, workspace.owner)
    adjudications = _pending_adjudications(workspace)
    if adjudications:
        adjudicator = _adjudicator(session)
        planned = adjudicator.plan(adjudications)
        return [item.plan for item in planned], adjudicator.manifest(planned)
    extractor = _extractor(session)
    found = extractor.plan(_next_extractions(workspace, request, limit))
    return [item.plan for item in found], extractor.manifest(found)
