"""The promotion journal over the store's `promotion_journal` / `promotion_files` tables.

Plans are stored with their exact bytes in the private DB (0600, state home). Every function
runs inside a `StateDB.write()` (nested ones become savepoints), so a caller composes several
into one transaction. Status changes are compare-and-set on the expected status.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from git_memory.contracts.canonical import canonical_json, sha256_hex
from git_memory.contracts.extraction import OwnerKeys
from git_memory.contracts.promotion import PromotionPlan
from git_memory.database import Row
from git_memory.store.authorization import record_authorization as record
from git_memory.store.db import StateDB, now_ms

PLAN_STATUSES = ("generated", "approved", "applying", "applied", "voided")
OPEN_STATUSES = ("generated", "approved", "applying")
DECLINED_REASON = "the human declined it in the approval form"


@dataclass(frozen=True)
class FileRecord:
    """One target of a stored plan with its progress and rollback bytes."""

    target_path: str
    target_blob_hash: str | None
    content: bytes
    digest: str
    intent_state: str
    originally_present: bool | None
    rollback_content: bytes | None
    operation: str = "write"  # "delete": `content` is b"" and the target is removed


@dataclass(frozen=True)
class PlanRecord:
    """A stored plan: the canonical document, its digest, status and files (in plan order)."""

    plan_id: str
    owner: OwnerKeys
    kind: str
    plan_json: dict[str, Any]
    plan_digest: str
    candidate_ids: list[str]
    status: str
    mutation_phase: str
    void_reason: str | None
    files: list[FileRecord]


def create_plan(
    db: StateDB,
    *,
    plan: PromotionPlan,
    owner: OwnerKeys,
    contents: Mapping[str, bytes],
    kind: str = "entry",
) -> None:
    """Store a `generated` plan with the exact bytes of each file (b"" for a delete)."""
    stamp = now_ms()
    with db.write(boundary="store.journal"):
        db.execute(
            "INSERT INTO promotion_journal (plan_id, repository_key, worktree_key, kind,"
            " plan_canonical_json, plan_digest, candidate_ids_json, assessment_digest,"
            " policy_version, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                plan.plan_id,
                owner.repository_key,
                owner.worktree_key,
                kind,
                canonical_json(plan.to_json()).decode(),
                plan.plan_digest(),
                json.dumps(plan.candidate_ids),
                plan.assessment_digest,
                plan.policy_version,
                stamp,
                stamp,
            ),
        )
        db.executemany(
            "INSERT INTO promotion_files (plan_id, target_path, operation, target_blob_hash,"
            " sanitized_content, sanitized_digest) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    plan.plan_id,
                    item.target_path,
                    item.operation,
                    item.target_blob_hash,
                    contents[item.target_path],
                    sha256_hex(contents[item.target_path]),
                )
                for item in plan.per_file
            ],
        )


def _file(row: Row) -> FileRecord:
    present = row["originally_present"]
    return FileRecord(
        target_path=row["target_path"],
        target_blob_hash=row["target_blob_hash"],
        content=bytes(row["sanitized_content"]),
        digest=row["sanitized_digest"],
        intent_state=row["intent_state"],
        originally_present=None if present is None else bool(present),
        rollback_content=None
        if row["rollback_content"] is None
        else bytes(row["rollback_content"]),
        operation=row["operation"],
    )


def get_plan(db: StateDB, plan_id: str) -> PlanRecord | None:
    """The stored plan, or None. Files come in the plan's `perFile` order."""
    row = db.one("SELECT * FROM promotion_journal WHERE plan_id = ?", (plan_id,))
    if row is None:
        return None
    plan_json = json.loads(row["plan_canonical_json"])
    rows = {
        r["target_path"]: _file(r)
        for r in db.rows("SELECT * FROM promotion_files WHERE plan_id = ?", (plan_id,))
    }
    order = [str(item.get("targetPath")) for item in plan_json.get("perFile", [])]
    files = [rows[path] for path in order if path in rows]
    files += [rows[path] for path in sorted(rows) if path not in order]
    return PlanRecord(
        plan_id=row["plan_id"],
        owner=OwnerKeys(repository_key=row["repository_key"], worktree_key=row["worktree_key"]),
        kind=row["kind"],
        plan_json=plan_json,
        plan_digest=row["plan_digest"],
        candidate_ids=json.loads(row["candidate_ids_json"]),
        status=row["status"],
        mutation_phase=row["mutation_phase"],
        void_reason=row["void_reason"],
        files=files,
    )


def require_plan(db: StateDB, plan_id: str) -> PlanRecord:
    """`get_plan` for a plan known to exist."""
    record = get_plan(db, plan_id)
    if record is None:
        raise KeyError(plan_id)
    return record


def plan_ids(db: StateDB, owner: OwnerKeys, statuses: tuple[str, ...] = OPEN_STATUSES) -> list[str]:
    """The owner's plan ids in these states, oldest first."""
    marks = ",".join("?" for _ in statuses)
    rows = db.rows(
        "SELECT plan_id FROM promotion_journal WHERE repository_key = ? AND worktree_key = ?"
        f" AND status IN ({marks}) ORDER BY created_at, plan_id",
        (owner.repository_key, owner.worktree_key, *statuses),
    )
    return [str(r[0]) for r in rows]


def plan_counts(db: StateDB, owner: OwnerKeys) -> dict[str, int]:
    """Plans of the owner by status (every status present, zero included)."""
    counts = dict.fromkeys(PLAN_STATUSES, 0)
    for row in db.rows(
        "SELECT status, COUNT(*) FROM promotion_journal WHERE repository_key = ?"
        " AND worktree_key = ? GROUP BY status",
        (owner.repository_key, owner.worktree_key),
    ):
        counts[str(row[0])] = int(row[1])
    return counts


def transition(
    db: StateDB,
    plan_id: str,
    *,
    expected: tuple[str, ...],
    status: str,
    phase: str | None = None,
    void_reason: str | None = None,
) -> bool:
    """CAS the plan's status from one of `expected`; False when it was elsewhere."""
    marks = ",".join("?" for _ in expected)
    with db.write():
        changed = db.execute(
            "UPDATE promotion_journal SET status = ?,"
            " mutation_phase = COALESCE(?, mutation_phase),"
            " void_reason = COALESCE(?, void_reason), updated_at = ?"
            f" WHERE plan_id = ? AND status IN ({marks})",
            (status, phase, void_reason, now_ms(), plan_id, *expected),
        )
    return changed == 1


def decline(db: StateDB, record: PlanRecord, *, via: str) -> bool:
    """Void a plan the human declined and remember the decline, in one transaction.

    False when the plan was no longer generated or approved (another path moved it on)."""
    with db.write(boundary="store.journal"):
        if not transition(
            db,
            record.plan_id,
            expected=("generated", "approved"),
            status="voided",
            phase="done",
            void_reason=DECLINED_REASON,
        ):
            return False
        db.execute(
            "INSERT INTO plan_declines (plan_id, repository_key, worktree_key, plan_digest,"
            " via, declined_at) VALUES (?, ?, ?, ?, ?, ?)",
            (
                record.plan_id,
                record.owner.repository_key,
                record.owner.worktree_key,
                record.plan_digest,
                via,
                now_ms(),
            ),
        )
    return True


def declined_at(db: StateDB, plan_id: str) -> int | None:
    """When the human declined the plan (ms since the epoch), or None when they did not."""
    value = db.scalar("SELECT declined_at FROM plan_declines WHERE plan_id = ?", (plan_id,))
    return None if value is None else int(value)


def set_phase(db: StateDB, plan_id: str, phase: str) -> None:
    """Record the mutation phase."""
    with db.write():
        db.execute(
            "UPDATE promotion_journal SET mutation_phase = ?, updated_at = ? WHERE plan_id = ?",
            (phase, now_ms(), plan_id),
        )


def set_file_state(db: StateDB, plan_id: str, path: str, state: str) -> None:
    """Record one file's progress (committed before the caller touches the disk)."""
    with db.write():
        db.execute(
            "UPDATE promotion_files SET intent_state = ? WHERE plan_id = ? AND target_path = ?",
            (state, plan_id, path),
        )


def set_rollback(
    db: StateDB, plan_id: str, path: str, *, originally_present: bool, content: bytes | None
) -> None:
    """Keep the bytes a rollback restores (read during the precheck)."""
    with db.write():
        db.execute(
            "UPDATE promotion_files SET originally_present = ?, rollback_content = ?,"
            " rollback_digest = ? WHERE plan_id = ? AND target_path = ?",
            (
                int(originally_present),
                content,
                None if content is None else sha256_hex(content),
                plan_id,
                path,
            ),
        )


def clear_rollback(db: StateDB, plan_id: str) -> None:
    """Wipe the rollback bytes once the plan is applied (they may be stale private text)."""
    with db.write():
        db.execute(
            "UPDATE promotion_files SET rollback_content = NULL, rollback_digest = NULL"
            " WHERE plan_id = ?",
            (plan_id,),
        )


def record_authorization(
    db: StateDB, owner: OwnerKeys, *, plan_digest: str, via: str, detail: Mapping[str, Any]
) -> None:
    """Append an approval of a promotion plan to the authorization log."""

    record(
        db,
        owner=owner,
        subject_kind="promotion-plan",
        subject_digest=plan_digest,
        via=via,
        detail=dict(detail),
    )
