"""Reading the authorization log back: only tests need the rows (production appends them)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from git_memory.contracts.extraction import OwnerKeys
from git_memory.store.db import StateDB


@dataclass(frozen=True)
class Authorization:
    """One authorization log row."""

    id: int
    at: str
    owner: OwnerKeys
    subject_kind: str
    subject_digest: str
    via: str
    detail: dict[str, Any]


def list_authorizations(db: StateDB, owner: OwnerKeys) -> list[Authorization]:
    """The owner's authorizations, oldest first."""
    rows = db.rows(
        "SELECT * FROM authorization_log WHERE repository_key = ? AND worktree_key = ? ORDER BY id",
        (owner.repository_key, owner.worktree_key),
    )
    return [
        Authorization(
            id=row["id"],
            at=row["at"],
            owner=OwnerKeys(repository_key=row["repository_key"], worktree_key=row["worktree_key"]),
            subject_kind=row["subject_kind"],
            subject_digest=row["subject_digest"],
            via=row["via"],
            detail=json.loads(row["detail"]),
        )
        for row in rows
    ]
