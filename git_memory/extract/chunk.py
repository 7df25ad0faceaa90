"""`memory-chunker@3`: pack whole consecutive turns into chunks of at most 40,960 bytes.

A turn is never split across chunks. Tool payloads are cut to what evidence needs: every one
over 1,024 bytes is excerpted to head and tail 256 bytes (a command and what it ran on are at
the head, the exit status before it, errors and results at the tail; a file dump or a long log
says what it is in its first and last lines), and one that repeats, byte for byte, a payload
handed out in an earlier turn of the session (the same file read again, the same command's same
output) is one line naming that turn. A user message over 4,096 bytes (a pasted document or
log, a program's prompt) keeps its first and last 1,536 bytes, an assistant message over 2,048
bytes (long reasoning, a summary) its first and last 768; a turn of many tool calls keeps 6 KiB
of them, the others shown by their first characters. A turn that still exceeds the budget alone
has its payloads over 512 bytes cut to head and tail 256, then the tool events in its middle
folded into one line, then its longest user or assistant texts (a pasted document) cut in the
middle, until it fits. The budget counts the transcript's preamble and turn markers. Every cut
is declared in the text, with the total size and sha256 of what was cut, and in the chunk's
coverage.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from git_memory.contracts.extraction import CoverageItem, TurnRange
from git_memory.extract.source import SourceEvent, SourceTurn

CHUNKER_VERSION = "memory-chunker@3"
CHUNK_BUDGET_BYTES = 40_960
EXCERPT_THRESHOLD_BYTES = 1_024
EXCERPT_SIDE_BYTES = 256
# A person's message is cut only past this: their own words are the evidence. The agent's
# long messages (reasoning, a summary of what it did) say what matters at their ends.
MESSAGE_THRESHOLD_BYTES = 4_096
MESSAGE_SIDE_BYTES = 1_536
AGENT_MESSAGE_THRESHOLD_BYTES = 2_048
AGENT_MESSAGE_SIDE_BYTES = 768
# A turn of many tool calls keeps this many bytes of tool events as they are (and the first
# and last few events); the others are shown by their first characters.
TOOL_TURN_BUDGET_BYTES = 6_144
TOOL_ENDS_KEPT = 2
CONDENSED_HEAD_CHARS = 120
# A payload shorter than this is not worth a line that points to its earlier copy.
REPEAT_MIN_BYTES = 256
TIGHT_THRESHOLD_BYTES = 512
TIGHT_SIDE_BYTES = 256
# Room kept for the marker that declares a cut of a text.
MARKER_ROOM_BYTES = 256
# What the transcript adds around the events (`transcript.py`): the preamble and end marker
# once, a `<<past-turn …>>` marker per turn; both count against the budget.
PREAMBLE_ROOM_BYTES = 1_280
TURN_MARKER_BYTES = 64


def event_cost(event: SourceEvent) -> int:
    """Serialized bytes of one event: `<<past-ROLE>>\n` + text + blank line."""
    return len(f"<<past-{event.kind}>>\n{event.text}\n\n".encode())


def turn_cost(events: tuple[SourceEvent, ...]) -> int:
    """Serialized bytes of a turn's events (the turn marker itself is not counted)."""
    return sum(event_cost(event) for event in events)


def excerpt(event: SourceEvent, side: int = EXCERPT_SIDE_BYTES) -> SourceEvent:
    """Head/tail excerpt of an event's text, cut on bytes with a lossy decode; the cut is
    declared with the whole text's size and sha256 (of the original when cut twice)."""
    raw = event.text.encode()
    sha = event.payload_sha256 or hashlib.sha256(raw).hexdigest()
    total = event.payload_bytes or len(raw)
    what = "tool payload" if event.is_tool_payload else f"{event.kind} text"
    marker = (
        f"[[{what} truncated by {CHUNKER_VERSION}: total {total} bytes, "
        f"sha256={sha}; head/tail {side}-byte excerpts]]"
    )
    head = raw[:side].decode("utf-8", "replace")
    tail = raw[-side:].decode("utf-8", "replace")
    return replace(
        event,
        text=f"{head}\n{marker}\n{tail}",
        truncated=True,
        payload_sha256=sha,
        payload_bytes=total,
    )


def cut_payloads(events: tuple[SourceEvent, ...]) -> tuple[SourceEvent, ...]:
    """Every tool payload over 1 KiB, every assistant message over 2 KiB (long reasoning, a
    summary) and every user message over 4 KiB (a pasted document or log, a program's
    prompt), as its head/tail excerpt."""
    cut: list[SourceEvent] = []
    for event in events:
        size = len(event.text.encode())
        if event.truncated:
            cut.append(event)
        elif event.is_tool_payload:
            cut.append(excerpt(event) if size > EXCERPT_THRESHOLD_BYTES else event)
        elif event.kind == "assistant" and size > AGENT_MESSAGE_THRESHOLD_BYTES:
            cut.append(excerpt(event, AGENT_MESSAGE_SIDE_BYTES))
        elif size > MESSAGE_THRESHOLD_BYTES:
            cut.append(excerpt(event, MESSAGE_SIDE_BYTES))
        else:
            cut.append(event)
    return tuple(cut)


def condense_tool_runs(events: tuple[SourceEvent, ...]) -> tuple[SourceEvent, ...]:
    """A turn whose tool events (already cut) exceed `TOOL_TURN_BUDGET_BYTES` keeps its first
    and last `TOOL_ENDS_KEPT` tool events as they are; every run of consecutive tool events
    between them becomes one event listing each by its first 120 characters (the command, the
    path, the exit status), with one declaration of the run's size and sha256."""
    tools = [i for i, e in enumerate(events) if e.is_tool_payload]
    if len(tools) <= 2 * TOOL_ENDS_KEPT:
        return events
    if sum(event_cost(events[i]) for i in tools) <= TOOL_TURN_BUDGET_BYTES:
        return events
    middle = set(tools[TOOL_ENDS_KEPT:-TOOL_ENDS_KEPT])
    condensed: list[SourceEvent] = []
    run: list[SourceEvent] = []
    for index, event in enumerate(events):
        if index in middle:
            run.append(event)
            continue
        condensed += _condensed(run)
        run = []
        condensed.append(event)
    return tuple(condensed + _condensed(run))


def _condensed(run: list[SourceEvent]) -> list[SourceEvent]:
    """One event for a run of tool events, each shown by its first characters; the run as it
    is when that would not be shorter."""
    heads = [f"{e.kind}: {' '.join(e.text.split())[:CONDENSED_HEAD_CHARS]}" for e in run]
    if not run or sum(len(h.encode()) for h in heads) >= sum(event_cost(e) for e in run):
        return run
    cut = [e.payload_sha256 or e.text for e in run]
    total = sum(e.payload_bytes or len(e.text.encode()) for e in run)
    sha = hashlib.sha256("\n".join(cut).encode()).hexdigest()
    marker = (
        f"[[{len(run)} tool events shown by their first {CONDENSED_HEAD_CHARS} characters by "
        f"{CHUNKER_VERSION}: total {total} bytes, sha256={sha}]]"
    )
    text = "\n".join([marker, *heads])
    return [replace(run[0], text=text, truncated=True, payload_sha256=sha, payload_bytes=total)]


def mark_repeats(
    events: tuple[SourceEvent, ...], index: int, seen: dict[str, int]
) -> tuple[SourceEvent, ...]:
    """Every tool payload of turn `index` that repeats one of an earlier turn in `seen` (sha256
    of the whole payload to the turn it was handed out in) as one line naming that turn; the
    others are recorded in `seen`."""
    marked: list[SourceEvent] = []
    for event in events:
        size = event.payload_bytes or len(event.text.encode())
        if not event.is_tool_payload or size < REPEAT_MIN_BYTES:
            marked.append(event)
            continue
        sha = event.payload_sha256 or hashlib.sha256(event.text.encode()).hexdigest()
        first = seen.setdefault(sha, index)
        if first == index:
            marked.append(event)
            continue
        what = "tool call" if event.kind == "tool_call" else "tool result"
        line = (
            f"[[{what} repeated by {CHUNKER_VERSION}: the same {size} bytes as in turn {first}, "
            f"sha256={sha}]]"
        )
        marked.append(
            replace(event, text=line, truncated=True, payload_sha256=sha, payload_bytes=size)
        )
    return tuple(marked)


def fit_turn(events: tuple[SourceEvent, ...], budget: int) -> tuple[SourceEvent, ...]:
    """Cut an over-budget turn until it fits: payloads to a tighter excerpt (largest first,
    earlier first on ties), then the longest user or assistant texts in the middle."""
    current = list(events)
    payloads = sorted(
        (i for i, e in enumerate(current) if e.is_tool_payload),
        key=lambda i: (-len(current[i].text.encode()), i),
    )
    for index in payloads:
        if turn_cost(tuple(current)) <= budget:
            return tuple(current)
        if len(current[index].text.encode()) > TIGHT_THRESHOLD_BYTES:
            current[index] = excerpt(current[index], TIGHT_SIDE_BYTES)
    current = _fold_tool_events(current, budget)
    texts = sorted(
        (i for i, e in enumerate(current) if not e.is_tool_payload),
        key=lambda i: (-len(current[i].text.encode()), i),
    )
    for index in texts:
        over = turn_cost(tuple(current)) - budget
        if over <= 0:
            break
        size = len(current[index].text.encode())
        side = (size - over - MARKER_ROOM_BYTES) // 2
        if side >= TIGHT_SIDE_BYTES:
            current[index] = excerpt(current[index], side)
        elif size > 2 * TIGHT_SIDE_BYTES + MARKER_ROOM_BYTES:
            current[index] = excerpt(current[index], TIGHT_SIDE_BYTES)
    return tuple(current)


def _fold_tool_events(events: list[SourceEvent], budget: int) -> list[SourceEvent]:
    """A turn of hundreds of tool calls that is over the budget even with every payload cut
    keeps its first and last tool events; those in the middle, nearest the middle first,
    become one line that declares how many were left out, their size and sha256."""
    tools = [i for i, e in enumerate(events) if e.is_tool_payload]
    over = turn_cost(tuple(events)) - budget + MARKER_ROOM_BYTES
    if over <= 0 or not tools:
        return events
    middle = len(tools) // 2
    order = sorted(tools, key=lambda i: (abs(tools.index(i) - middle), i))
    dropped: set[int] = set()
    for index in order:
        if over <= 0:
            break
        dropped.add(index)
        over -= event_cost(events[index])
    cut = [events[i].payload_sha256 or events[i].text for i in sorted(dropped)]
    total = sum(events[i].payload_bytes or len(events[i].text.encode()) for i in dropped)
    sha = hashlib.sha256("\n".join(cut).encode()).hexdigest()
    line = SourceEvent(
        kind="tool_result",
        text=f"[[{len(dropped)} tool calls and results omitted by {CHUNKER_VERSION}: total "
        f"{total} bytes, sha256={sha}]]",
        truncated=True,
        payload_sha256=sha,
        payload_bytes=total,
    )
    first = min(dropped)
    return [
        line if i == first else e for i, e in enumerate(events) if i == first or i not in dropped
    ]


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


def chunk_turns(
    turns: list[SourceTurn],
    budget: int = CHUNK_BUDGET_BYTES,
    skip: frozenset[int] = frozenset(),
) -> list[TurnChunk]:
    """Greedily pack one session's selected turns (in order) into chunks, leaving out the
    indexes in `skip` (turns handed out with another session already)."""
    chunks: list[TurnChunk] = []
    pending: list[ChunkTurn] = []
    used = 0
    budget -= PREAMBLE_ROOM_BYTES  # the transcript's preamble and end marker
    seen: dict[str, int] = {}
    for index, turn in enumerate(turns):
        if index in skip:
            continue
        events = condense_tool_runs(cut_payloads(mark_repeats(turn.events, index, seen)))
        if turn_cost(events) + TURN_MARKER_BYTES > budget:
            events = fit_turn(events, budget - TURN_MARKER_BYTES)
        cost = turn_cost(events) + TURN_MARKER_BYTES
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
