"""Shared steps of every stage: claim (or replay), submit, the source re-check, the staged list."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from git_memory.contracts.host_records import CitedTurn
from git_memory.contracts.review import CandidateKind, ReviewItem
from git_memory.contracts.stage import StagedCandidate
from git_memory.errors import GitMemoryError
from git_memory.extract.review_items import review_model
from git_memory.sessions.query import TurnRecord, select_turns
from git_memory.store.candidates import require_candidate
from git_memory.store.session import Workspace
from git_memory.store.tasks import (
    Apply,
    SubmitResult,
    abandon_task,
    claim_task,
    get_task,
    mark_stale,
    not_found,
    submit_task,
)

AGENT_HOLDER = "git-memory-agent"
LEASE_MS = 300_000


def claim_or_replay(workspace: Workspace, task_id: str, response_digest: str) -> str | None:
    """A claim token for a fresh submission, or None when the task already has one.

    With None the submission replays the stored outcome (same bytes) or is refused as a
    conflict (different bytes); the store decides and audits that.
    """
    task = get_task(workspace.db, task_id)
    if task is None or task.owner != workspace.owner:
        raise not_found(task_id)
    if task.status == "submitted":
        return None
    if task.status == "stale":
        raise stale(task_id, task.stale_reason or "the task went stale")
    try:
        claim = claim_task(workspace.db, task_id, holder=AGENT_HOLDER, lease_ms=LEASE_MS)
    except GitMemoryError as exc:
        if exc.code == "GM_TASK_SUBMITTED":
            return None  # another process submitted meanwhile: replay or conflict
        raise
    return claim.claim_token


def release(workspace: Workspace, task_id: str, token: str | None) -> None:
    """Give a claim back after a refused submission so the agent can stage a fix at once."""
    task = get_task(workspace.db, task_id)
    if token and task is not None and task.status == "claimed":
        abandon_task(workspace.db, task_id, token)


def submit_or_release(
    workspace: Workspace, task_id: str, token: str | None, response_digest: str, apply: Apply
) -> SubmitResult:
    """Submit under `token` (None: replay or conflict); a refused submission gives the claim
    back (`release`) so the agent can stage a fix at once."""
    try:
        return submit_task(
            workspace.db,
            task_id=task_id,
            claim_token=token or "",
            response_digest=response_digest,
            apply=apply,
        )
    except GitMemoryError:
        release(workspace, task_id, token)
        raise


def stale(task_id: str, reason: str, details: dict[str, Any] | None = None) -> GitMemoryError:
    """The structured `GM_TASK_STALE` error."""
    return GitMemoryError(
        "GM_TASK_STALE",
        f"task {task_id!r} is stale: {reason}",
        hint="recall again and stage against the new task",
        details={"taskId": task_id, "reason": reason, **(details or {})},
    )


def source_is_current(
    workspace: Workspace,
    task_id: str,
    turns: list[CitedTurn],
    read: Mapping[str, TurnRecord] | None = None,
) -> None:
    """Refuse (and mark stale) when a source turn changed or vanished since recall.

    `read`: the turns (by turn key) an in-process extractor read from the index during this
    run and drew its answer from; their revisions are the ones the answer rests on, so they
    are compared instead of reading every turn of the sessions again for each task.
    """
    if read is None:
        sessions = sorted({turn.session_key for turn in turns})
        closures = ("hard-sealed", "quiescent", "open")
        read = {
            record.turn_key: record
            for record in select_turns(workspace.worktree, session_keys=sessions, closures=closures)
        }
    current = {
        turn.turn_key: read[turn.turn_key].revision for turn in turns if turn.turn_key in read
    }
    changed = [t.turn_index for t in turns if current.get(t.turn_key) != t.revision]
    if changed:
        reason = "source turns changed since recall"
        mark_stale(workspace.db, task_id, reason)
        raise stale(task_id, reason, {"changedTurns": changed})


def staged_candidates(
    workspace: Workspace, candidate_ids: list[str], kind: CandidateKind
) -> tuple[list[StagedCandidate], list[ReviewItem]]:
    """An AgentStage's `candidates` (as stored now) and the review items of those quarantined."""
    staged, items = [], []
    for candidate_id in candidate_ids:
        found = require_candidate(workspace.db, candidate_id)
        staged.append(
            StagedCandidate(
                candidate_id=found.candidate_id,
                revision=found.revision,
                kind=kind,
                status=found.status,
            )
        )
        if found.status == "quarantined":
            items.append(review_model(workspace.db, found))
    return staged, items
