"""Consolidation runs: what each synthesize/consolidate produced, and the last baseline."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from git_memory.contracts.canonical import canonical_json
from git_memory.store.db import StateDB, now_ms

if TYPE_CHECKING:
    from git_memory.contracts.extraction import OwnerKeys


def record_consolidation_run(
    db: StateDB, *, run_id: str, owner: OwnerKeys, task_id: str | None, entry_count: int,
    patch: dict[str, Any], state: str = "pending_review",
) -> None:  # fmt: skip
    """Insert or replace a consolidation run."""
    stamp = now_ms()
    with db.write(boundary="store.consolidation"):
        db.execute(
            "INSERT INTO consolidation_runs (run_id, repository_key, worktree_key, task_id,"
            " state, entry_count, patch_json, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET"
            " state = excluded.state, entry_count = excluded.entry_count,"
            " patch_json = excluded.patch_json, updated_at = excluded.updated_at",
            (run_id, owner.repository_key, owner.worktree_key, task_id, state, entry_count,
             canonical_json(patch).decode(), stamp, stamp),
        )  # fmt: skip


def consolidation_runs(db: StateDB, owner: OwnerKeys) -> list[dict[str, Any]]:
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
