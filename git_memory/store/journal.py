"""Promotion plans + journal + per-file rows, consolidation runs, runner conformance (CRUD).

The promotion flow itself (approve, apply, rollback, finalize) lives in `promote/`; this module
only stores and moves its states under compare-and-set:
plan `status` generated → approved → applying → applied | voided, `mutation_phase`
precheck → mutating → rolling_back → done, and per file `intent_state`
pending → intent → applied | rolled_back.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from git_memory.contracts.canonical import canonical_json
from git_memory.errors import GitMemoryError
from git_memory.store.db import Owner, Row, StateDB, now_ms

PLAN_STATUSES = ("generated", "approved", "applying", "applied", "voided")


@dataclass(frozen=True)
class PlanFile:
    """One file of a promotion plan, with its apply progress."""

    target_path: str
    operation: str
    target_blob_hash: str | None
    sanitized_content: bytes
    sanitized_digest: str
    intent_state: str = "pending"
    originally_present: bool | None = None
    rollback_content: bytes | None = None
    rollback_digest: str | None = None


@dataclass(frozen=True)
class Plan:
    """One promotion journal row."""

    plan_id: str
    owner: Owner
    kind: str
    plan: dict[str, Any]
    plan_digest: str
    candidate_ids: list[str]
    assessment_digest: str
    policy_version: str
    status: str
    mutation_phase: str
    void_reason: str | None
    updated_at: int


def _plan(row: Row) -> Plan:
    return Plan(
        plan_id=row["plan_id"],
        owner=Owner(row["repository_key"], row["worktree_key"]),
        kind=row["kind"],
        plan=json.loads(row["plan_canonical_json"]),
        plan_digest=row["plan_digest"],
        candidate_ids=json.loads(row["candidate_ids_json"]),
        assessment_digest=row["assessment_digest"],
        policy_version=row["policy_version"],
        status=row["status"],
        mutation_phase=row["mutation_phase"],
        void_reason=row["void_reason"],
        updated_at=row["updated_at"],
    )


def create_plan(
    db: StateDB,
    *,
    plan_id: str,
    owner: Owner,
    plan: dict[str, Any],
    plan_digest: str,
    candidate_ids: Sequence[str],
    assessment_digest: str,
    policy_version: str,
    files: Sequence[PlanFile],
    kind: str = "entry",
) -> Plan:
    """Store a generated plan and its files; the same plan again is a no-op.

    The same `plan_id` with another digest is refused (`GM_PLAN_CONFLICT`).
    """
    with db.write(boundary="store.journal"):
        existing = get_plan(db, plan_id)
        if existing is not None:
            if existing.plan_digest != plan_digest:
                raise GitMemoryError(
                    "GM_PLAN_CONFLICT", f"plan {plan_id!r} exists with another digest"
                )
            return existing
        stamp = now_ms()
        db.execute(
            "INSERT INTO promotion_journal (plan_id, repository_key, worktree_key, kind,"
            " plan_canonical_json, plan_digest, candidate_ids_json, assessment_digest,"
            " policy_version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                plan_id, owner.repository_key, owner.worktree_key, kind,
                canonical_json(plan).decode(), plan_digest, json.dumps(list(candidate_ids)),
                assessment_digest, policy_version, stamp, stamp,
            ),
        )  # fmt: skip
        db.executemany(
            "INSERT INTO promotion_files (plan_id, target_path, operation, target_blob_hash,"
            " sanitized_content, sanitized_digest) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (plan_id, f.target_path, f.operation, f.target_blob_hash, f.sanitized_content,
                 f.sanitized_digest)
                for f in files
            ],
        )  # fmt: skip
        created = get_plan(db, plan_id)
    assert created is not None
    return created


def get_plan(db: StateDB, plan_id: str) -> Plan | None:
    """The plan, or None."""
    row = db.one("SELECT * FROM promotion_journal WHERE plan_id = ?", (plan_id,))
    return None if row is None else _plan(row)


def get_plan_by_digest(db: StateDB, plan_digest: str) -> Plan | None:
    """The plan with this digest, or None."""
    row = db.one("SELECT * FROM promotion_journal WHERE plan_digest = ?", (plan_digest,))
    return None if row is None else _plan(row)


def plan_files(db: StateDB, plan_id: str) -> list[PlanFile]:
    """The plan's files by target path."""
    return [
        PlanFile(
            target_path=row["target_path"],
            operation=row["operation"],
            target_blob_hash=row["target_blob_hash"],
            sanitized_content=bytes(row["sanitized_content"]),
            sanitized_digest=row["sanitized_digest"],
            intent_state=row["intent_state"],
            originally_present=None
            if row["originally_present"] is None
            else bool(row["originally_present"]),
            rollback_content=None
            if row["rollback_content"] is None
            else bytes(row["rollback_content"]),
            rollback_digest=row["rollback_digest"],
        )
        for row in db.rows(
            "SELECT * FROM promotion_files WHERE plan_id = ? ORDER BY target_path", (plan_id,)
        )
    ]


def set_plan_status(
    db: StateDB,
    plan_id: str,
    *,
    expected: Sequence[str],
    status: str,
    mutation_phase: str | None = None,
    void_reason: str | None = None,
) -> Plan:
    """Move a plan to `status` if it is in one of `expected` (`GM_PLAN_STATE_INVALID` else)."""
    if status not in PLAN_STATUSES:
        raise ValueError(f"unknown plan status {status!r}")
    marks = ",".join("?" for _ in expected)
    with db.write(boundary="store.journal"):
        changed = db.execute(
            "UPDATE promotion_journal SET status = ?,"
            " mutation_phase = coalesce(?, mutation_phase),"
            " void_reason = coalesce(?, void_reason), updated_at = ?"
            f" WHERE plan_id = ? AND status IN ({marks})",
            (status, mutation_phase, void_reason, now_ms(), plan_id, *expected),
        )
        current = get_plan(db, plan_id)
        if changed != 1 or current is None:
            raise GitMemoryError(
                "GM_PLAN_STATE_INVALID",
                f"plan {plan_id!r} is {current.status if current else 'unknown'}, "
                f"not {' or '.join(expected)}",
            )
    return current


def set_file_state(
    db: StateDB,
    plan_id: str,
    target_path: str,
    intent_state: str,
    *,
    originally_present: bool | None = None,
    rollback_content: bytes | None = None,
    rollback_digest: str | None = None,
) -> None:
    """Record a file's apply progress (and, at precheck, what to restore on rollback)."""
    with db.write(boundary="store.journal"):
        changed = db.execute(
            "UPDATE promotion_files SET intent_state = ?,"
            " originally_present = coalesce(?, originally_present),"
            " rollback_content = coalesce(?, rollback_content),"
            " rollback_digest = coalesce(?, rollback_digest)"
            " WHERE plan_id = ? AND target_path = ?",
            (
                intent_state,
                None if originally_present is None else int(originally_present),
                rollback_content,
                rollback_digest,
                plan_id,
                target_path,
            ),
        )
        if changed != 1:
            raise GitMemoryError(
                "GM_PLAN_STATE_INVALID", f"plan {plan_id!r} has no file {target_path!r}"
            )


def clear_rollback(db: StateDB, plan_id: str) -> None:
    """Drop the rollback bytes of a finished plan (they may hold old private text)."""
    with db.write(boundary="store.journal"):
        db.execute(
            "UPDATE promotion_files SET rollback_content = NULL WHERE plan_id = ?", (plan_id,)
        )


def list_plans(db: StateDB, owner: Owner, status: str | None = None) -> list[Plan]:
    """The owner's plans, oldest first."""
    sql = "SELECT * FROM promotion_journal WHERE repository_key = ? AND worktree_key = ?"
    params: list[Any] = [owner.repository_key, owner.worktree_key]
    if status is not None:
        sql += " AND status = ?"
        params.append(status)
    return [_plan(row) for row in db.rows(sql + " ORDER BY created_at, plan_id", params)]


def record_consolidation_run(
    db: StateDB, *, run_id: str, owner: Owner, task_id: str | None, entry_count: int,
    patch: dict[str, Any], state: str = "pending_review",
) -> None:  # fmt: skip
    """Insert or replace a consolidation run."""
    stamp = now_ms()
    with db.write(boundary="store.journal"):
        db.execute(
            "INSERT INTO consolidation_runs (run_id, repository_key, worktree_key, task_id,"
            " state, entry_count, patch_json, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET"
            " state = excluded.state, entry_count = excluded.entry_count,"
            " patch_json = excluded.patch_json, updated_at = excluded.updated_at",
            (run_id, owner.repository_key, owner.worktree_key, task_id, state, entry_count,
             canonical_json(patch).decode(), stamp, stamp),
        )  # fmt: skip


def consolidation_runs(db: StateDB, owner: Owner) -> list[dict[str, Any]]:
    """The owner's consolidation runs, oldest first."""
    rows = db.rows(
        "SELECT run_id, task_id, state, entry_count, patch_json, updated_at"
        " FROM consolidation_runs WHERE repository_key = ? AND worktree_key = ?"
        " ORDER BY created_at, run_id",
        (owner.repository_key, owner.worktree_key),
    )
    return [
        {
            "runId": r[0], "taskId": r[1], "state": r[2], "entryCount": r[3],
            "patch": json.loads(r[4]), "updatedAt": r[5],
        }
        for r in rows
    ]  # fmt: skip


def record_conformance(
    db: StateDB, *, profile: str, cli_version_fingerprint: str, test_version: str,
    record: dict[str, Any],
) -> None:  # fmt: skip
    """Cache a passed conformance run of a runner profile."""
    with db.write(boundary="store.journal"):
        db.execute(
            "INSERT OR REPLACE INTO runner_conformance (profile, cli_version_fingerprint,"
            " test_version, passed_at, record_json) VALUES (?, ?, ?, ?, ?)",
            (profile, cli_version_fingerprint, test_version, now_ms(),
             canonical_json(record).decode()),
        )  # fmt: skip


def get_conformance(db: StateDB, profile: str) -> dict[str, Any] | None:
    """The cached conformance of a profile: fingerprint, test version, passedAt, record."""
    row = db.one("SELECT * FROM runner_conformance WHERE profile = ?", (profile,))
    if row is None:
        return None
    return {
        "cliVersionFingerprint": row["cli_version_fingerprint"],
        "testVersion": row["test_version"],
        "passedAt": row["passed_at"],
        "record": json.loads(row["record_json"]),
    }
