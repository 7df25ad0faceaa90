"""What the builtin extractor already finds with observed evidence, marked on the tasks
`recall` hands to the agent (`builtinDrafts`): the agent copies those drafts into its batch
instead of deriving them again, and spends its reading on what only a reader finds (rules
in other words, decisions, layout). The task's private record keeps their statements, so a
copy staged as it was handed out is the host's own typed fact (`extract/observed_support.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from git_memory.contracts.extraction import DraftCandidate
from git_memory.contracts.host_records import ObservedStatement
from git_memory.extract.builtin.runner import TaskTurns, extraction_answer, read_facts
from git_memory.extract.builtin.window import place_facts
from git_memory.extract.select import WindowSelection
from git_memory.extract.tasks import PlannedTask
from git_memory.sessions.query import program_sessions
from git_memory.store import offers
from git_memory.store.session import Workspace


@dataclass(frozen=True)
class Marked:
    """The drafts a task is handed out with, and their statements for its private record."""

    drafts: list[DraftCandidate]
    observed: list[ObservedStatement]


def builtin_drafts(
    workspace: Workspace, selection: WindowSelection, planned: Sequence[PlannedTask]
) -> dict[str, Marked]:
    """Task id → what the builtin extractor drafts from that task's chunk with observed
    evidence, for each of `planned` that has any. What the worktree already holds (approved,
    a candidate in review, a draft) is not drafted again; a memory several of the tasks show
    is given to the first."""
    keys = {task.session_key for task in planned}
    sessions = [s for s in selection.sessions if s.session_key in keys]
    if not sessions:
        return {}
    programs = program_sessions(workspace.worktree, sorted(keys))
    held = offers.held(workspace.db, workspace.owner)
    found = read_facts(workspace, sessions, programs, held)
    observed = [m for m in found.memories if m and m[0].claim_support == "typed-fact"]
    task_of_turn = {turn.turn_key: p.task.task_id for p in planned for turn in p.turns}
    placed = place_facts(observed, task_of_turn)
    marked: dict[str, Marked] = {}
    for task in planned:
        facts = placed.get(task.task.task_id)
        if not facts:
            continue
        batch, support = extraction_answer(TaskTurns.of(task.host_record()), facts)
        typed = [n for n in range(1, len(facts) + 1) if support[n] == "typed-fact"]
        if not typed:
            continue
        drafts = [batch.candidates[n - 1] for n in typed]
        statements = [
            ObservedStatement(
                text=draft.statements[0].text,
                evidence_ids=draft.statements[0].evidence_ids,
                renderer=facts[n - 1].renderer,
                parameters=list(facts[n - 1].parameters),
            )
            for n, draft in zip(typed, drafts, strict=True)
        ]
        marked[task.task.task_id] = Marked(drafts, statements)
    return marked
