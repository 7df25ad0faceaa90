"""Which memory file contents a person reviewed on this machine: the files promotion wrote.

A promotion plan is prepared only from statements a person confirmed, a directive among them
confirmed explicitly (`GM_DIRECTIVE_UNCONFIRMED` otherwise), and applied only with their
approval; the journal keeps the exact bytes of every file an applied plan wrote. A memory
file whose bytes are one of those was reviewed here; any other (written by hand, or brought
by a pull) was not, and `verify` and the pre-commit hook flag the directives in it.

Read as the session index is (`sessions/private.py`): the database as it is, nothing
migrated or written, no pydantic or pygit2, so the hook can ask.
"""

from __future__ import annotations

import os

from git_memory.paths import MEMORY_STATE_DB

_APPLIED_WRITES = (
    "SELECT f.sanitized_digest FROM promotion_files AS f"
    " JOIN promotion_journal AS j ON j.plan_id = f.plan_id"
    " WHERE j.status = 'applied' AND f.operation = 'write'"
)


def reviewed_digests(state_home: str) -> frozenset[str]:
    """sha256 (hex) of every file content an applied promotion plan wrote in this state home.

    Empty without a state database, or when it cannot be read: then nothing counts as
    reviewed, so every directive is flagged (the safe side for a warning).
    """
    path = os.path.join(state_home, MEMORY_STATE_DB)
    if not os.path.isfile(path):
        return frozenset()
    # Start-up seam (docs/architecture.md): the pre-commit hook loads the database module and
    # sqlite3 only when a staged memory file holds a directive.
    from git_memory.database import DatabaseError, existing_reader  # noqa: PLC0415

    try:
        with existing_reader(path) as conn:
            return frozenset(str(row[0]) for row in conn.execute(_APPLIED_WRITES))
    except DatabaseError:
        return frozenset()
