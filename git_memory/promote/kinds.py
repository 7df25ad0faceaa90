"""What a plan kind beyond entries brings to prepare and promote.

Entries are rendered by `promote/` itself. Other kinds (a skill, a consolidation patch that
writes scenes and doctrine) are rendered and checked by their own package, which implements
`PromotionKind`; the operations pass the table of kinds in, so `promote/` never imports the
packages above it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from git_memory.contracts.promotion import PlanOperation
    from git_memory.store.candidates import Candidate
    from git_memory.store.db import StateDB
    from git_memory.store.journal import PlanRecord
    from git_memory.store.session import Workspace


class PromotionKind(Protocol):
    """The hooks of one plan kind; a module with these three functions implements it."""

    def plan_files(
        self, workspace: Workspace, candidates: list[Candidate], /
    ) -> list[tuple[str, PlanOperation, str | None]]:
        """`(path relative to the memory root, "write" | "delete", content)` per file;
        refuses (a GitMemoryError) when the candidates no longer bind to the memory."""

    def precheck(self, workspace: Workspace, record: PlanRecord, /) -> None:
        """Before promote writes: refuse when the kind's own binding drifted."""

    def finalize(self, db: StateDB, record: PlanRecord, /) -> None:
        """Inside promote's finalize transaction: the kind's own bookkeeping."""


PromotionKinds = Mapping[str, PromotionKind]
