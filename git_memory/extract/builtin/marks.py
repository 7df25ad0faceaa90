"""What the builtin extractor already finds with observed evidence, marked on the tasks
`recall` hands to the agent (`builtinDrafts`): the agent copies those drafts into its batch
instead of deriving them again, and spends its reading on what only a reader finds (rules
in other words, decisions, layout)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from git_memory.extract.builtin.runner import TaskTurns, extraction_answer, read_facts
from git_memory.extract.builtin.window import place_facts
from git_memory.sessions.query import program_sessions
from git_memory.store import offers

if TYPE_CHECKING:
    from git_memory.contracts.extraction import DraftCandidate
    from git_memory.extract.select import WindowSelection
    from git_memory.extract.tasks import PlannedTask
    from git_memory.store.session import Workspace


def builtin_drafts(
    workspace: Workspace, selection: WindowSelection, planned: Sequence[PlannedTask]
) -> dict[str, list[DraftCandidate]]:
    """Task id → the drafts the builtin extractor writes from that task's chunk with
    observed evidence, for each of `planned` that has any. What the worktree already holds
    (approved, a candidate in review, a draft) is not drafted again; a memory several of the
    tasks show is given to the first."""
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
    drafts: dict[str, list[DraftCandidate]] = {}
    for task in planned:
        facts = placed.get(task.task.task_id)
        if not facts:
            continue
        batch, support = extraction_answer(TaskTurns.of(task.host_record()), facts)
        kept = [c for n, c in enumerate(batch.candidates, 1) if support[n] == "typed-fact"]
        if kept:
            drafts[task.task.task_id] = kept
    return drafts
