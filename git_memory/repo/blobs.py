"""Git blob object ids (the CAS tokens of promotion plans) and index reads."""

from __future__ import annotations

from typing import Any

import pygit2


def blob_oid(data: bytes) -> str:
    """The git blob OID of `data` (`git hash-object` semantics)."""
    return str(pygit2.hash(data))


def commit_exists(repository: Any, hex_id: str) -> bool:
    """Whether `hex_id` (40 hex) names a commit in this repository."""
    try:
        obj = repository.get(hex_id)
    except (ValueError, KeyError):
        return False
    return obj is not None and obj.type == pygit2.enums.ObjectType.COMMIT
