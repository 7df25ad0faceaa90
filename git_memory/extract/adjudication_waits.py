"""Drafts that wait for adjudication, and the task that can move them now.

Only an AdjudicationResult moves a draft, and its task goes stale as soon as its pool moves
(another batch adjudicated, an entry approved). So a draft must never be left with a stale
task only: the task of every batch with drafts is reissued against the current pool when
its last one went stale, was never kept (drafts of older versions) or no longer covers the
drafts that wait. The next stage refused as stale, a replayed draft stage and every recall
hand the current task out; `status` names the batches that wait.
"""

from __future__ import annotations

from dataclasses import dataclass

from git_memory.contracts.adjudication import AdjudicationTask
from git_memory.contracts.canonical import digest
from git_memory.contracts.extraction import DraftCandidate
from git_memory.errors import GitMemoryError
from git_memory.extract import artifacts
from git_memory.extract.adjudication_task import adjudication_task_for, similar_drafts
from git_memory.store.candidates import Candidate, list_candidates
from git_memory.store.db import StateDB
from git_memory.store.session import Workspace
from git_memory.store.tasks import Task, list_tasks

DRAFT_FIELDS = ("content", "type", "priority", "confidence", "scene", "statements")


@dataclass(frozen=True)
class Waiting:
    """The drafts of one staged batch that no adjudication has decided yet."""

    batch_task_id: str
    draft_ids: tuple[str, ...]
    # The newest adjudication task over the batch and its state (`missing`: none was kept).
    task_id: str | None
    state: str

    def to_json(self) -> dict[str, object]:
        """The `status` form."""
        return {
            "draftsOf": self.batch_task_id,
            "drafts": len(self.draft_ids),
            "adjudicationTaskId": self.task_id,
            "state": self.state,
        }


def waiting(db: StateDB, workspace: Workspace) -> list[Waiting]:
    """Every batch with drafts, oldest batch first, and its newest adjudication task."""
    batches: dict[str, list[str]] = {}
    for draft in list_candidates(db, workspace.owner, statuses=("draft",), kind="entry"):
        batches.setdefault(_batch_of(draft), []).append(draft.candidate_id)
    newest = _newest_tasks(db, workspace)
    found = []
    for batch, ids in sorted(batches.items()):
        task = newest.get(batch)
        found.append(
            Waiting(
                batch_task_id=batch,
                draft_ids=tuple(sorted(ids)),
                task_id=task.task_id if task else None,
                state=task.status if task else "missing",
            )
        )
    return found


def current_adjudications(workspace: Workspace) -> list[AdjudicationTask]:
    """The adjudication task that can move each waiting batch's drafts now, reissued where
    the last one cannot."""
    with workspace.db.write(boundary="extract.reissue"):
        batches = waiting(workspace.db, workspace)
        return [_current(workspace, one) for one in batches]


def current_adjudication(workspace: Workspace, batch_task_id: str) -> AdjudicationTask | None:
    """The task that can move the drafts of one batch now (None: none of them waits)."""
    with workspace.db.write(boundary="extract.reissue"):
        for one in waiting(workspace.db, workspace):
            if one.batch_task_id == batch_task_id:
                return _current(workspace, one)
    return None


def _current(workspace: Workspace, one: Waiting) -> AdjudicationTask:
    db = workspace.db
    drafts = _drafts(db, workspace, one.draft_ids)
    previous = _load(workspace, one.task_id)
    if previous is not None and one.state in ("pending", "claimed"):
        same_drafts = sorted(d.candidate_id for d in previous.drafts) == list(one.draft_ids)
        pool = similar_drafts(db, workspace, one.batch_task_id, [(c, d.content) for c, d in drafts])
        if same_drafts and pool.result_set_digest == previous.binding.result_set_digest:
            return previous
    batch_digest = (
        previous.binding.draft_batch_digest
        if previous is not None
        else digest({"candidates": [draft.to_json() for _, draft in drafts]})
    )
    stale = one.task_id if one.state == "stale" else None
    return adjudication_task_for(
        workspace, db, one.batch_task_id, batch_digest, drafts, reissue_of=stale
    )


def _drafts(
    db: StateDB, workspace: Workspace, draft_ids: tuple[str, ...]
) -> list[tuple[str, DraftCandidate]]:
    by_id = {
        c.candidate_id: c
        for c in list_candidates(db, workspace.owner, statuses=("draft",), kind="entry")
    }
    return [
        (
            cid,
            DraftCandidate.model_validate(
                {key: by_id[cid].payload.get(key) for key in DRAFT_FIELDS}
            ),
        )
        for cid in draft_ids
    ]


def _load(workspace: Workspace, task_id: str | None) -> AdjudicationTask | None:
    if task_id is None:
        return None
    try:
        return artifacts.load_adjudication(workspace.worktree.state_home, task_id)
    except GitMemoryError:
        return None  # a record lost or unreadable: the task is reissued


def _newest_tasks(db: StateDB, workspace: Workspace) -> dict[str, Task]:
    newest: dict[str, Task] = {}
    for task in list_tasks(db, workspace.owner, kind="adjudication"):  # oldest first
        if task.draft_batch_ref:
            newest[task.draft_batch_ref] = task
    return newest


def _batch_of(draft: Candidate) -> str:
    """The extraction task a draft's batch answered (its id is `<taskId>-c<n>`)."""
    return draft.task_id or draft.candidate_id.rsplit("-c", 1)[0]
