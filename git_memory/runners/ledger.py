"""Where approvals and deliveries are recorded: the authorization log of memory-state.

`Ledger` is what plans and deliveries need; `StoreLedger` writes it to the memory-state DB
(`store/authorization.py`), so every approval is logged with `via interactive|digest|manifest`
and every delivery has a write-ahead record.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Protocol

Via = Literal["interactive", "digest", "manifest"]
# `sending` is written before the first byte goes out; a crash leaves it behind, which makes
# the delivery indeterminate (the provider may or may not have received it).
DeliveryState = Literal["sending", "delivered", "failed"]


class Ledger(Protocol):
    """The record of approvals and deliveries a runner flow writes."""

    def authorize(
        self, subject_kind: str, subject_digest: str, via: Via, detail: Mapping[str, Any]
    ) -> None:
        """Log one approval."""

    def delivery_state(self, plan_digest: str) -> DeliveryState | None:
        """The last recorded state of a plan's delivery, or None when never attempted."""

    def begin_delivery(self, plan_digest: str, task_id: str) -> None:
        """Write-ahead: the delivery is about to start."""

    def finish_delivery(self, plan_digest: str, state: DeliveryState) -> None:
        """The delivery ended (delivered or failed)."""


class StoreLedger:
    """A `Ledger` over the memory-state DB of the store subsystem."""

    def __init__(self, db: Any, owner: Any) -> None:
        self.db = db
        self.owner = owner

    def authorize(
        self, subject_kind: str, subject_digest: str, via: Via, detail: Mapping[str, Any]
    ) -> None:
        """Append to the authorization log."""
        from git_memory.store import authorization

        authorization.record_authorization(
            self.db,
            owner=self.owner,
            subject_kind=subject_kind,
            subject_digest=subject_digest,
            via=via,
            detail=dict(detail),
        )

    def delivery_state(self, plan_digest: str) -> DeliveryState | None:
        """The delivery record of `plan_digest`."""
        from git_memory.store import authorization

        state: DeliveryState | None = authorization.delivery_state(self.db, plan_digest)
        return state

    def begin_delivery(self, plan_digest: str, task_id: str) -> None:
        """Commit the write-ahead record before anything is sent."""
        from git_memory.store import authorization

        authorization.begin_delivery(self.db, plan_digest=plan_digest, task_id=task_id)

    def finish_delivery(self, plan_digest: str, state: DeliveryState) -> None:
        """Close the delivery record."""
        from git_memory.store import authorization

        authorization.finish_delivery(self.db, plan_digest=plan_digest, state=state)
