"""The authorization log and runner deliveries (tables and basic CRUD).

Every human (or agent) decision that lets data leave the machine or lets files change is one
row of `authorization_log`: what was approved (`subject_kind` runner-plan | runner-manifest |
promotion-plan, by digest), how (`via` interactive | digest | manifest | elicitation | agent)
and a canonical JSON `detail`. `runner_deliveries` makes sending a plan to a runner
at-most-once: `sending` is recorded before the send, then `delivered`, `failed` or
`indeterminate` (the process died mid-send, nobody knows whether the data left).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from git_memory.contracts.base import format_timestamp  # pydantic: only when writing
from git_memory.contracts.canonical import canonical_json
from git_memory.errors import GitMemoryError
from git_memory.store.db import StateDB

if TYPE_CHECKING:
    from git_memory.contracts.extraction import OwnerKeys

SUBJECT_KINDS = ("runner-plan", "runner-manifest", "promotion-plan")
VIAS = ("interactive", "digest", "manifest", "elicitation", "agent")
FINAL_DELIVERY_STATES = ("delivered", "indeterminate", "failed")


@dataclass(frozen=True)
class DeliveryRow:
    """One runner delivery row."""

    plan_digest: str
    task_id: str
    state: str
    started_at: str
    finished_at: str | None


def _now() -> str:
    return format_timestamp(datetime.now(UTC))


def record_authorization(
    db: StateDB,
    *,
    owner: OwnerKeys,
    subject_kind: str,
    subject_digest: str,
    via: str,
    detail: dict[str, Any],
) -> int:
    """Append one authorization; returns its id."""
    if subject_kind not in SUBJECT_KINDS:
        raise ValueError(f"unknown subject kind {subject_kind!r}")
    if via not in VIAS:
        raise ValueError(f"unknown authorization channel {via!r}")
    with db.write(boundary="store.authorization"):
        return db.insert(
            "INSERT INTO authorization_log (at, repository_key, worktree_key, subject_kind,"
            " subject_digest, via, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                _now(),
                owner.repository_key,
                owner.worktree_key,
                subject_kind,
                subject_digest,
                via,
                canonical_json(detail).decode(),
            ),
        )


def begin_delivery(db: StateDB, *, plan_digest: str, task_id: str) -> bool:
    """Record `sending` before a plan goes to a runner; False when it was begun before.

    A False return means this plan was already sent (or is being sent): do not send again;
    `delivery_state` tells what happened.
    """
    with db.write(boundary="store.delivery"):
        return (
            db.execute(
                "INSERT OR IGNORE INTO runner_deliveries (plan_digest, task_id, state,"
                " started_at) VALUES (?, ?, 'sending', ?)",
                (plan_digest, task_id, _now()),
            )
            == 1
        )


def finish_delivery(db: StateDB, plan_digest: str, state: str) -> None:
    """Move a `sending` delivery to delivered | indeterminate | failed.

    `GM_DELIVERY_STATE_INVALID` when there is no such delivery or it already finished.
    """
    if state not in FINAL_DELIVERY_STATES:
        raise ValueError(f"a delivery finishes as one of {FINAL_DELIVERY_STATES}, not {state!r}")
    with db.write(boundary="store.delivery"):
        changed = db.execute(
            "UPDATE runner_deliveries SET state = ?, finished_at = ?"
            " WHERE plan_digest = ? AND state = 'sending'",
            (state, _now(), plan_digest),
        )
        if changed != 1:
            current = delivery_state(db, plan_digest)
            raise GitMemoryError(
                "GM_DELIVERY_STATE_INVALID",
                f"delivery of plan {plan_digest[:12]}… is "
                f"{current.state if current else 'not started'}, not sending",
            )


def delivery_state(db: StateDB, plan_digest: str) -> DeliveryRow | None:
    """The delivery of a runner plan, or None when it never began."""
    row = db.one("SELECT * FROM runner_deliveries WHERE plan_digest = ?", (plan_digest,))
    if row is None:
        return None
    return DeliveryRow(
        row["plan_digest"], row["task_id"], row["state"], row["started_at"], row["finished_at"]
    )
