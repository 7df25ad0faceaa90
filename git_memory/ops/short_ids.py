"""Ids in text output, abbreviated against every id of their kind in this worktree's state.

A printed abbreviation must name its id alone when typed back, so it is made unique against
the same namespace the resolver of that kind searches (`namespace`), not only against the ids
printed beside it (see git_memory/ids.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from git_memory.ids import MIN_SHOWN, abbreviate_within
from git_memory.sessions.keys import all_keys
from git_memory.store.candidates import candidate_ids
from git_memory.store.journal import PLAN_STATUSES, plan_ids
from git_memory.store.session import open_workspace
from git_memory.store.tasks import task_ids

if TYPE_CHECKING:
    from git_memory.contracts.extraction import OwnerKeys
    from git_memory.repo.binding import Worktree
    from git_memory.store.db import StateDB
    from git_memory.store.session import Workspace


def _candidates(db: StateDB, owner: OwnerKeys) -> list[str]:
    return candidate_ids(db, owner)


def _plans(db: StateDB, owner: OwnerKeys) -> list[str]:
    return plan_ids(db, owner, PLAN_STATUSES)


def _tasks(db: StateDB, owner: OwnerKeys) -> list[str]:
    return task_ids(db, owner)


# kind -> every id of that kind a typed abbreviation is resolved against (one query each).
NAMESPACES: dict[str, Callable[[StateDB, OwnerKeys], list[str]]] = {
    "candidate": _candidates,
    "plan": _plans,
    "task": _tasks,
}


def namespace(db: StateDB, owner: OwnerKeys, kind: str) -> list[str]:
    """Every id of `kind` ("candidate", "plan", "task") the owner has, in any state."""
    return NAMESPACES[kind](db, owner)


class ShortIds:
    """Abbreviates ids for a text rendering; reads each kind's namespace once, when first
    needed. Kinds: those of `NAMESPACES`, and "session" (session and turn keys).

    Given the operation's open `workspace`, it reads from that one; otherwise (rendering
    after the operation closed its own) it opens one of its own when first needed."""

    def __init__(self, worktree: Worktree, workspace: Workspace | None = None) -> None:
        self._worktree = worktree
        self._workspace = workspace
        self._known: dict[str, list[str]] = {}

    def of(self, kind: str, identifiers: Iterable[str]) -> dict[str, str]:
        """Each of `identifiers` (ids of `kind`) mapped to its shortest unique form."""

        shown = list(identifiers)
        if not shown:  # nothing to read
            return {}
        # Session and turn keys too: 7 hex digits, more only where another key would read
        # the same (as git abbreviates object names).
        return abbreviate_within(shown, self._namespace(kind), minimum=MIN_SHOWN)

    def one(self, kind: str, identifier: str) -> str:
        """One id of `kind` abbreviated."""
        return self.of(kind, [identifier])[identifier]

    def _namespace(self, kind: str) -> list[str]:
        if kind == "session" and kind not in self._known:
            self._known[kind] = all_keys(self._worktree.state_home)
        if kind not in self._known and self._workspace is not None:
            self._known[kind] = namespace(self._workspace.db, self._workspace.owner, kind)
        if kind not in self._known:
            with open_workspace(self._worktree, sync=False) as workspace:
                self._known[kind] = namespace(workspace.db, workspace.owner, kind)
        return self._known[kind]
