"""What consolidation's rules and capacity check read of one patch operation.

A protocol of its own, so the capacity check and the rules that call it both depend on it
and not on each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class PatchOperationFields(Protocol):
    """What the rules read of one operation (the ConsolidationPatch@v1 operation model)."""

    @property
    def operation_id(self) -> str: ...
    @property
    def op(self) -> str: ...
    @property
    def target(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def new_content(self) -> str | None: ...
    @property
    def based_on_entry_ids(self) -> Sequence[str]: ...
    @property
    def merge_sources(self) -> Sequence[str]: ...
    @property
    def rationale(self) -> str: ...
