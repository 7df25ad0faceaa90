"""A draft citing evidence of another task is refused, naming both tasks.

Evidence ids are unique to their chunk (`evidence.chunk_scope`), so an id missing from a task's
catalog that another task's catalog holds was copied across tasks: it names a turn of another
session or chunk. Dropping it (or its quote) would hide the mistake; the batch is refused
instead so the agent cites the task it answers.
"""

from __future__ import annotations

from git_memory.contracts.extraction import CandidateDraftBatch
from git_memory.contracts.host_records import RecallRecord
from git_memory.errors import GitMemoryError
from git_memory.extract.artifacts import recalls_holding
from git_memory.store.session import Workspace


def cited_ids(batch: CandidateDraftBatch) -> set[str]:
    """Every evidence id the batch cites, in statements and in quotes."""
    found: set[str] = set()
    for draft in batch.candidates:
        for statement in draft.statements:
            found.update(statement.evidence_ids)
            found.update(quote.evidence_id for quote in statement.quotes or [])
    return found


def refuse_foreign(workspace: Workspace, record: RecallRecord, batch: CandidateDraftBatch) -> None:
    """`GM_EVIDENCE_FOREIGN` when the batch cites an id of another task's catalog."""
    own = {item.evidence_id for item in record.catalog}
    missing = cited_ids(batch) - own
    if not missing:
        return
    holders = recalls_holding(workspace.worktree.state_home, missing)
    foreign = {e: t for e, t in holders.items() if t != batch.task_id}
    if not foreign:
        return  # unknown ids: the candidates citing them are rejected alone
    tasks = sorted(set(foreign.values()))
    raise GitMemoryError(
        "GM_EVIDENCE_FOREIGN",
        f"task {batch.task_id!r} is answered with evidence ids of task"
        f"{'s' if len(tasks) > 1 else ''} {', '.join(repr(t) for t in tasks)}: "
        + ", ".join(sorted(foreign)),
        hint="cite only ids of the evidenceCatalog of the task you answer (stage each task's "
        "drafts with that task's ids); nothing was staged",
        details={
            "taskId": batch.task_id,
            "foreign": [{"evidenceId": e, "taskId": t} for e, t in sorted(foreign.items())],
        },
    )
