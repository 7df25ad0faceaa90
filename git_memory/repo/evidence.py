"""What the repository says about cited evidence: tracked paths and reachable commits.

Read once per verify run: the index is read into a set, and each commit's reachability from
HEAD is computed once and cached.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Literal

import pygit2

CommitState = Literal["reachable", "unreachable", "missing"]


class RepositoryFacts:
    """Cached answers about one repository (a pygit2.Repository)."""

    def __init__(self, repository: Any) -> None:
        self.repository = repository
        self._commits: dict[str, CommitState] = {}

    @cached_property
    def tracked(self) -> frozenset[str]:
        """Every path in the index, and every directory that holds one."""
        index = self.repository.index
        index.read(False)
        found: set[str] = set()
        for entry in index:
            path = entry.path
            found.add(path)
            while "/" in path:
                path = path.rsplit("/", 1)[0]
                if path in found:
                    break
                found.add(path)
        return frozenset(found)

    @cached_property
    def shallow(self) -> bool:
        """Whether history is cut off here (a shallow clone): missing commits prove nothing."""
        return bool(self.repository.is_shallow)

    @cached_property
    def head(self) -> Any:
        """The commit id HEAD points at, or None on an unborn branch."""
        try:
            return self.repository.head.target
        except (pygit2.GitError, KeyError, ValueError):
            return None

    def commit_state(self, hex_id: str) -> CommitState:
        """Whether commit `hex_id` is missing, present but not in HEAD's history, or reachable."""
        if hex_id not in self._commits:
            self._commits[hex_id] = self._state(hex_id)
        return self._commits[hex_id]

    def _state(self, hex_id: str) -> CommitState:
        try:
            found = self.repository.get(hex_id)
        except (ValueError, KeyError):
            found = None
        if found is None or found.type != pygit2.enums.ObjectType.COMMIT:
            return "missing"
        if self.head is None:
            return "unreachable"
        if found.id == self.head or self.repository.descendant_of(self.head, found.id):
            return "reachable"
        return "unreachable"
