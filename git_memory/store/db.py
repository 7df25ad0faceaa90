"""`memory-state.sqlite3`: the memory state's `Database` (git_memory/database.py).

The file is 0600 in the private state home, in WAL mode with `foreign_keys` and
`secure_delete` on; its writers serialize on a filelock, then `BEGIN IMMEDIATE`, and a nested
`write()` is a SAVEPOINT, so flows compose several store calls into one atomic transaction.
Its named migrations are `store/migrations.py`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from git_memory.database import Database
from git_memory.paths import MEMORY_STATE_DB
from git_memory.store.migrations import STATE_SCHEMA

if TYPE_CHECKING:
    from pathlib import Path


def now_ms() -> int:
    """Wall-clock milliseconds since the epoch (leases and row timestamps)."""
    return time.time_ns() // 1_000_000


def state_db_path(state_home: Path) -> Path:
    """Where `memory-state.sqlite3` lives in a state home."""
    return state_home / MEMORY_STATE_DB


class StateDB(Database):
    """An open memory-state database (one connection, used from one thread)."""

    def __init__(self, path: Path, *, migrate: bool = True, upto: str | None = None) -> None:
        super().__init__(path, STATE_SCHEMA, migrate=migrate, upto=upto)


def open_state(state_home: Path) -> StateDB:
    """Open (creating and migrating as needed) the memory-state DB of a state home."""
    return StateDB(state_db_path(state_home))
