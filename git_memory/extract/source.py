"""The neutral shape of selected source turns, as the chunker and evidence catalog see them.

The session index produces these (see `extract/select.py`); keeping extraction on its own small
types means chunking, serialization and digests are pure and testable without an index.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from git_memory.contracts.host_records import EvidencePointer, EvidenceStrength, SelectedTurn

EventKind = Literal["user", "assistant", "tool_call", "tool_result"]

# Lower is stronger; the catalog keeps the strongest strength seen for a pointer.
STRENGTH_ORDER: dict[str, int] = {"direct": 0, "observed": 1, "candidate": 2, "contextual": 3}


@dataclass(frozen=True)
class SourceEvent:
    """One visible event of a turn: human or assistant text, or a tool payload."""

    kind: EventKind
    text: str
    truncated: bool = False
    payload_sha256: str | None = None
    payload_bytes: int | None = None

    @property
    def is_tool_payload(self) -> bool:
        """Tool calls and results may be excerpted; user and assistant text never."""
        return self.kind in ("tool_call", "tool_result")


@dataclass(frozen=True)
class EvidenceEdge:
    """A host-side evidence edge of a turn (commit or path); strength never leaves the host."""

    pointer: EvidencePointer
    relation: str
    strength: EvidenceStrength
    limitations: tuple[str, ...] = ()


@dataclass(frozen=True)
class SourceTurn:
    """One sealed turn of a session attributed to this worktree."""

    session_key: str
    turn_key: str
    revision: str
    observed_at: str
    provider: str
    events: tuple[SourceEvent, ...]
    edges: tuple[EvidenceEdge, ...] = ()
    payload_digests: tuple[str, ...] = field(default_factory=tuple)

    def selection_item(self) -> SelectedTurn:
        """What `resultSetDigest` covers for this turn."""
        return SelectedTurn(
            session_key=self.session_key,
            turn_key=self.turn_key,
            revision=self.revision,
            observed_timestamp=self.observed_at,
        )
