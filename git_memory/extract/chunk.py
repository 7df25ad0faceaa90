"""`memory-chunker@1`: pack whole consecutive turns into chunks of at most 40,960 bytes.

A turn is never split and user/assistant text is never cut. Only a turn that alone exceeds
the budget has its tool payloads over 2,048 bytes excerpted (largest first, earlier first on
ties) to head and tail 1,024 bytes with the total size and sha256; every loss is declared in
the chunk's coverage.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from git_memory.contracts.extraction import CoverageItem, TurnRange
from git_memory.extract.source import SourceEvent, SourceTurn

CHUNKER_VERSION = "memory-chunker@1"
CHUNK_BUDGET_BYTES = 40_960
EXCERPT_THRESHOLD_BYTES = 2_048
EXCERPT_SIDE_BYTES = 1_024


def event_cost(event: SourceEvent) -> int:
    """Serialized bytes of one event: `<<past-ROLE>>\\n` + text + blank line."""
    return len(f"<<past-{event.kind}>>\n{event.text}\n\n".encode())


def turn_cost(events: tuple[SourceEvent, ...]) -> int:
    """Serialized bytes of a turn's events (the turn marker itself is not counted)."""
    return sum(event_cost(event) for event in events)


def excerpt(event: SourceEvent) -> SourceEvent:
    """Head/tail excerpt of a tool payload, cut on bytes with a lossy decode."""
    raw = event.text.encode()
    sha = hashlib.sha256(raw).hexdigest()
    marker = (
        f"[[tool payload truncated by {CHUNKER_VERSION}: total {len(raw)} bytes, "
        f"sha256={sha}; head/tail {EXCERPT_SIDE_BYTES}-byte excerpts]]"
    )
    head = raw[:EXCERPT_SIDE_BYTES].decode("utf-8", "replace")
    tail = raw[-EXCERPT_SIDE_BYTES:].decode("utf-8", "replace")
    return replace(
        event,
        text=f"{head}\n{marker}\n{tail}",
        truncated=True,
        payload_sha256=sha,
        payload_bytes=len(raw),
    )


def fit_turn(events: tuple[SourceEvent, ...], budget: int) -> tuple[SourceEvent, ...]:
    """Excerpt the largest tool payloads of an over-budget turn until it fits (or none left)."""
    current = list(events)
    order = sorted(
        (i for i, e in enumerate(current) if e.is_tool_payload),
        key=lambda i: (-len(current[i].text.encode()), i),
    )
    for index in order:
        if turn_cost(tuple(current)) <= budget:
            break
        if len(current[index].text.encode()) > EXCERPT_THRESHOLD_BYTES:
            current[index] = excerpt(current[index])
    return tuple(current)


@dataclass(frozen=True)
class ChunkTurn:
    """A turn as it stands in a chunk: its 0-based index among the selected turns."""

    index: int
    turn: SourceTurn
    events: tuple[SourceEvent, ...]

    @property
    def truncated(self) -> bool:
        """Whether any payload of this turn was excerpted."""
        return any(event.truncated for event in self.events)


@dataclass(frozen=True)
class TurnChunk:
    """Consecutive whole turns of one session."""

    turns: tuple[ChunkTurn, ...]

    @property
    def turn_range(self) -> TurnRange:
        """The first and last turn indexes, inclusive."""
        return TurnRange(start=self.turns[0].index, end=self.turns[-1].index)

    def coverage(self) -> list[CoverageItem]:
        """Per turn full/truncated with its original bytes, then each excerpted payload."""
        items: list[CoverageItem] = []
        payloads: list[CoverageItem] = []
        for chunk_turn in self.turns:
            items.append(
                CoverageItem(
                    source_kind="turn",
                    ref=f"turn:{chunk_turn.index}",
                    completeness="truncated" if chunk_turn.truncated else "full",
                    bytes=turn_cost(chunk_turn.turn.events),
                )
            )
            for event in chunk_turn.events:
                if event.truncated:
                    payloads.append(
                        CoverageItem(
                            source_kind="tool-payload",
                            ref=f"payload:{event.payload_sha256}",
                            completeness="truncated",
                            bytes=event.payload_bytes or 0,
                        )
                    )
        return items + payloads

    def payload_digests(self) -> list[str]:
        """Sorted unique sha256 of every excerpted payload."""
        return sorted({e.payload_sha256 for t in self.turns for e in t.events if e.payload_sha256})


def chunk_turns(turns: list[SourceTurn], budget: int = CHUNK_BUDGET_BYTES) -> list[TurnChunk]:
    """Greedily pack one session's selected turns (in order) into chunks."""
    chunks: list[TurnChunk] = []
    pending: list[ChunkTurn] = []
    used = 0
    for index, turn in enumerate(turns):
        events = turn.events if turn_cost(turn.events) <= budget else fit_turn(turn.events, budget)
        cost = turn_cost(events)
        if pending and used + cost > budget:
            chunks.append(TurnChunk(tuple(pending)))
            pending, used = [], 0
        pending.append(ChunkTurn(index, turn, events))
        used += cost
        if used > budget:  # an oversize turn that could not be made to fit stands alone
            chunks.append(TurnChunk(tuple(pending)))
            pending, used = [], 0
    if pending:
        chunks.append(TurnChunk(tuple(pending)))
    return chunks
