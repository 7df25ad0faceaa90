"""The task protocol: plan, claim (lease + epoch + random token), abandon, submit with CAS.

- A claim succeeds only on a `pending` task or a `claimed` one whose lease has expired; it bumps
  `lease_epoch` and issues a fresh random claim token. `submitted` and `stale` tasks are never
  claimable again. The claim is one conditional UPDATE, so racing processes cannot both win.
- A lease also records which process holds it (pid, start time, boot id). A claim whose
  holding process is gone is free at once: a `stage` killed mid-way does not keep its task
  leased until the lease runs out, and `recall` offers such a task again.
- A submission carries the claim token; it is accepted once per task. The same response
  digest later replays the stored outcome (`idempotent=True`); a different digest is refused
  with `GM_SUBMISSION_CONFLICT` and audited in `submission_conflicts`.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from git_memory.contracts.canonical import canonical_json
from git_memory.contracts.extraction import OwnerKeys
from git_memory.database import Row
from git_memory.errors import GitMemoryError
from git_memory.failpoints import failpoint
from git_memory.store.db import StateDB, now_ms
from git_memory.store.lease_holder import holder_is_gone, split_holder, this_process

MAX_LEASE_MS = 86_400_000
TASK_KINDS = ("extraction", "adjudication", "consolidation", "skill", "synthesis")


@dataclass(frozen=True)
class Task:
    """One task row."""

    task_id: str
    kind: str
    owner: OwnerKeys
    status: str
    binding: dict[str, Any]
    chunk_ref: str | None
    draft_batch_ref: str | None
    authorization_plan_digest: str | None
    lease_holder: str | None
    lease_epoch: int
    lease_expires_at: int | None
    stale_reason: str | None
    created_at: int
    # `pid=… start=… boot=…` of the process holding the lease (stored after the holder name).
    lease_process: str = ""


@dataclass(frozen=True)
class Claim:
    """What a successful claim hands to its holder (the token is the only proof of it)."""

    task_id: str
    claim_token: str
    lease_epoch: int
    lease_expires_at: int


@dataclass(frozen=True)
class SubmitResult:
    """The outcome stored with the accepted submission; `idempotent` on a replay."""

    task_id: str
    outcome: dict[str, Any]
    idempotent: bool


def _task(row: Row) -> Task:
    holder, process = split_holder(row["lease_holder"])
    return Task(
        task_id=row["task_id"],
        kind=row["kind"],
        owner=OwnerKeys(repository_key=row["repository_key"], worktree_key=row["worktree_key"]),
        status=row["status"],
        binding=json.loads(row["binding_json"]),
        chunk_ref=row["chunk_ref"],
        draft_batch_ref=row["draft_batch_ref"],
        authorization_plan_digest=row["authorization_plan_digest"],
        lease_holder=holder,
        lease_process=process,
        lease_epoch=row["lease_epoch"],
        lease_expires_at=row["lease_expires_at"],
        stale_reason=row["stale_reason"],
        created_at=row["created_at"],
    )


def not_found(task_id: str) -> GitMemoryError:
    """The error for an unknown task id."""
    return GitMemoryError("GM_TASK_NOT_FOUND", f"no task {task_id!r} in this state home")


def get_task(db: StateDB, task_id: str) -> Task | None:
    """The task, or None."""
    row = db.one("SELECT * FROM tasks WHERE task_id = ?", (task_id,))
    return None if row is None else _task(row)


def plan_task(
    db: StateDB,
    *,
    task_id: str,
    kind: str,
    owner: OwnerKeys,
    binding: dict[str, Any],
    chunk_ref: str | None = None,
    draft_batch_ref: str | None = None,
    authorization_plan_digest: str | None = None,
) -> tuple[Task, bool]:
    """Create a pending task, idempotently; returns (task, created).

    Planning the same id with the same binding again returns the existing task, whatever its
    state. The same id with a different binding or owner is refused (`GM_TASK_CONFLICT`):
    task ids are digests of their binding, so that means a bug or a forged id.
    """
    if kind not in TASK_KINDS:
        raise ValueError(f"unknown task kind {kind!r}")
    binding_json = canonical_json(binding).decode()
    with db.write():
        existing = db.one("SELECT * FROM tasks WHERE task_id = ?", (task_id,))
        if existing is not None:
            task = _task(existing)
            if existing["binding_json"] != binding_json or task.owner != owner or task.kind != kind:
                raise GitMemoryError(
                    "GM_TASK_CONFLICT",
                    f"task {task_id!r} already exists with a different binding",
                )
            return task, False
        stamp = now_ms()
        db.execute(
            "INSERT INTO tasks (task_id, kind, repository_key, worktree_key, chunk_ref,"
            " draft_batch_ref, binding_json, authorization_plan_digest, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                task_id,
                kind,
                owner.repository_key,
                owner.worktree_key,
                chunk_ref,
                draft_batch_ref,
                binding_json,
                authorization_plan_digest,
                stamp,
                stamp,
            ),
        )
    created = get_task(db, task_id)
    assert created is not None
    return created, True


def lease_is_live(task: Task, now: int | None = None) -> bool:
    """Whether `task` is claimed by a lease that has not expired and whose process lives."""
    if task.status != "claimed" or task.lease_expires_at is None:
        return False
    if task.lease_expires_at < (now_ms() if now is None else now):
        return False
    return not holder_is_gone(task.lease_process)


def claim_task(
    db: StateDB, task_id: str, *, holder: str, lease_ms: int, now: int | None = None
) -> Claim:
    """Claim a task for `lease_ms` milliseconds (1..86,400,000).

    A claimed task is taken over when its lease expired or its holding process is gone.
    Refused: `GM_TASK_NOT_FOUND`, `GM_TASK_CLAIMED` (another live lease), `GM_TASK_SUBMITTED`,
    `GM_TASK_STALE`.
    """
    if not 1 <= lease_ms <= MAX_LEASE_MS:
        raise GitMemoryError("GM_LEASE_INVALID", f"lease must be 1..{MAX_LEASE_MS} ms")
    stamp = now_ms() if now is None else now
    token = secrets.token_hex(16)
    with db.write(boundary="store.claim"):
        current = get_task(db, task_id)
        # A dead holder's lease is taken over by epoch compare-and-swap: two processes that
        # both saw it dead cannot both win.
        orphaned = (
            current is not None
            and current.status == "claimed"
            and holder_is_gone(current.lease_process)
        )
        changed = db.execute(
            "UPDATE tasks SET status = 'claimed', lease_holder = ?, lease_epoch = lease_epoch + 1,"
            " claim_token = ?, lease_expires_at = ?, updated_at = ?"
            " WHERE task_id = ? AND (status = 'pending'"
            " OR (status = 'claimed' AND (lease_expires_at < ? OR lease_epoch = ?)))",
            (
                f"{holder} {this_process()}",
                token,
                stamp + lease_ms,
                stamp,
                task_id,
                stamp,
                current.lease_epoch if orphaned and current is not None else -1,
            ),
        )
        if changed != 1:
            raise _unclaimable(db, task_id)
        epoch = db.scalar("SELECT lease_epoch FROM tasks WHERE task_id = ?", (task_id,))
    return Claim(task_id, token, int(epoch), stamp + lease_ms)


def _unclaimable(db: StateDB, task_id: str) -> GitMemoryError:
    task = get_task(db, task_id)
    if task is None:
        return not_found(task_id)
    if task.status == "submitted":
        return GitMemoryError("GM_TASK_SUBMITTED", f"task {task_id!r} was already submitted")
    if task.status == "stale":
        return GitMemoryError(
            "GM_TASK_STALE",
            f"task {task_id!r} is stale ({task.stale_reason or 'its source changed'})",
            hint="plan the work again to get a fresh task",
        )
    return GitMemoryError(
        "GM_TASK_CLAIMED",
        f"task {task_id!r} is claimed by another holder until its lease expires",
        details={"leaseExpiresAt": task.lease_expires_at},
    )


def abandon_task(db: StateDB, task_id: str, claim_token: str) -> None:
    """Give a claim back (the task is pending again); needs the current claim token."""
    with db.write(boundary="store.abandon"):
        changed = db.execute(
            "UPDATE tasks SET status = 'pending', lease_holder = NULL, claim_token = NULL,"
            " lease_expires_at = NULL, updated_at = ?"
            " WHERE task_id = ? AND status = 'claimed' AND claim_token = ?",
            (now_ms(), task_id, claim_token),
        )
        if changed != 1:
            raise _token_refused(db, task_id)


def mark_stale(db: StateDB, task_id: str, reason: str) -> bool:
    """Make a not-yet-submitted task stale for good; False if it was submitted or unknown."""
    with db.write(boundary="store.mark-stale"):
        return (
            db.execute(
                "UPDATE tasks SET status = 'stale', stale_reason = ?, claim_token = NULL,"
                " updated_at = ? WHERE task_id = ? AND status IN ('pending', 'claimed')",
                (reason, now_ms(), task_id),
            )
            == 1
        )


def _token_refused(db: StateDB, task_id: str, now: int | None = None) -> GitMemoryError:
    task = get_task(db, task_id)
    if task is None:
        return not_found(task_id)
    if task.status in ("submitted", "stale"):
        return _unclaimable(db, task_id)
    expires = task.lease_expires_at
    if (
        task.status == "claimed"
        and expires is not None
        and expires < (now_ms() if now is None else now)
    ):
        return GitMemoryError(
            "GM_LEASE_EXPIRED",
            f"the lease on task {task_id!r} expired",
            hint="claim the task again",
        )
    return GitMemoryError(
        "GM_CLAIM_TOKEN_MISMATCH",
        f"task {task_id!r} is not claimed with this claim token",
        hint="the task was claimed again by someone else; claim it again",
    )


Apply = Callable[[StateDB, Task], dict[str, Any]]


def submit_task(
    db: StateDB,
    *,
    task_id: str,
    claim_token: str,
    response_digest: str,
    apply: Apply,
    now: int | None = None,
) -> SubmitResult:
    """Accept a task's response once, atomically with what `apply` writes.

    In one `BEGIN IMMEDIATE` transaction: replay or refuse when a submission exists; else
    check (claimed, token, unexpired lease), run `apply(db, task)` (it inserts candidates etc.
    and returns the outcome document), store the submission and mark the task submitted.
    An exception from `apply` rolls everything back; the claim stays.
    """
    conflict: GitMemoryError | None = None
    with db.write(boundary="store.submit"):
        previous = db.one("SELECT * FROM submissions WHERE task_id = ?", (task_id,))
        if previous is not None:
            if previous["response_digest"] == response_digest:
                return SubmitResult(task_id, json.loads(previous["outcome_json"]), True)
            db.execute(
                "INSERT INTO submission_conflicts (task_id, response_digest, received_at)"
                " VALUES (?, ?, ?)",
                (task_id, response_digest, now_ms()),
            )
            conflict = GitMemoryError(
                "GM_SUBMISSION_CONFLICT",
                f"task {task_id!r} already has a different accepted submission",
                hint="a task takes one response; plan new work for a different answer",
                details={"acceptedDigest": previous["response_digest"]},
            )
        else:
            outcome = _accept(
                db,
                task_id=task_id,
                claim_token=claim_token,
                response_digest=response_digest,
                apply=apply,
                now=now,
            )
    if conflict is not None:
        raise conflict  # after COMMIT, so the audit row is kept
    return SubmitResult(task_id, outcome, False)


def _accept(
    db: StateDB,
    *,
    task_id: str,
    claim_token: str,
    response_digest: str,
    apply: Apply,
    now: int | None,
) -> dict[str, Any]:
    stamp = now_ms() if now is None else now
    row = db.one(
        "SELECT * FROM tasks WHERE task_id = ? AND status = 'claimed' AND claim_token = ?"
        " AND lease_expires_at >= ?",
        (task_id, claim_token, stamp),
    )
    if row is None:
        raise _token_refused(db, task_id, stamp)
    outcome = apply(db, _task(row))
    failpoint("store.submit.after-apply")
    db.execute(
        "INSERT INTO submissions (task_id, response_digest, outcome_json, received_at)"
        " VALUES (?, ?, ?, ?)",
        (task_id, response_digest, canonical_json(outcome).decode(), stamp),
    )
    db.execute(
        "UPDATE tasks SET status = 'submitted', claim_token = NULL, updated_at = ?"
        " WHERE task_id = ?",
        (stamp, task_id),
    )
    return outcome


def list_tasks(
    db: StateDB, owner: OwnerKeys, *, kind: str | None = None, status: str | None = None
) -> list[Task]:
    """The owner's tasks, oldest first, optionally filtered."""
    sql = "SELECT * FROM tasks WHERE repository_key = ? AND worktree_key = ?"
    params: list[Any] = [owner.repository_key, owner.worktree_key]
    if kind is not None:
        sql += " AND kind = ?"
        params.append(kind)
    if status is not None:
        sql += " AND status = ?"
        params.append(status)
    return [_task(row) for row in db.rows(sql + " ORDER BY created_at, task_id", params)]


def task_ids(db: StateDB, owner: OwnerKeys) -> list[str]:
    """Every task id of the owner, of any kind and state."""
    rows = db.rows(
        "SELECT task_id FROM tasks WHERE repository_key = ? AND worktree_key = ?",
        (owner.repository_key, owner.worktree_key),
    )
    return [str(row[0]) for row in rows]
