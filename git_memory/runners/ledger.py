"""Where approvals and deliveries are recorded: the authorization log of memory-state.

`Ledger` is what plans and deliveries need; `StoreLedger` writes it to the memory-state DB
(`store/authorization.py`), so every approval is logged with `via interactive|digest|manifest`
and every delivery has a write-ahead record. A plan digest is delivered at most once: after a
failure or a crash the flow plans the task anew (new task id, new digest) and asks again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Protocol

from git_memory.contracts.extraction import OwnerKeys
from git_memory.store import authorization
from git_memory.store.db import StateDB

Via = Literal["interactive", "digest", "manifest"]
# `sending` is written before the first byte goes out; a crash leaves it behind, which makes
# the delivery indeterminate (the provider may or may not have received it).
DeliveryState = Literal["sending", "delivered", "failed", "indeterminate"]


class Ledger(Protocol):
    """The record of approvals and deliveries a runner flow writes."""

    def authorize(
        self, subject_kind: str, subject_digest: str, via: Via, detail: Mapping[str, Any]
    ) -> None:
        """Log one approval."""

    def delivery_state(self, plan_digest: str) -> DeliveryState | None:
        """The last recorded state of a plan's delivery, or None when never attempted."""

    def begin_delivery(self, plan_digest: str, task_id: str) -> bool:
        """Write-ahead: the delivery is about to start; False when it was begun before."""

    def finish_delivery(self, plan_digest: str, state: DeliveryState) -> None:
        """The delivery ended (delivered or failed)."""


class StoreLedger:
    """A `Ledger` over the memory-state DB of the store subsystem."""

    def __init__(self, db: StateDB, owner: OwnerKeys) -> None:
        self.db = db
        self.owner = owner

    def authorize(
        self, subject_kind: str, subject_digest: str, via: Via, detail: Mapping[str, Any]
    ) -> None:
        """Append to the authorization log."""
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
        delivery = authorization.delivery_state(self.db, plan_digest)
        return None if delivery is None else delivery.state  # type: ignore[return-value]

    def begin_delivery(self, plan_digest: str, task_id: str) -> bool:
        """Commit the write-ahead record before anything is sent (at most once per plan)."""
        return authorization.begin_delivery(self.db, plan_digest=plan_digest, task_id=task_id)

    def finish_delivery(self, plan_digest: str, state: DeliveryState) -> None:
        """Close the delivery record."""
        authorization.finish_delivery(self.db, plan_digest, state)
