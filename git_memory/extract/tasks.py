"""Build ExtractionTask@v1 documents from selected sessions, deterministically.

The same sessions give byte-identical tasks: every digest is canonical, the lease and the
provenance timestamp are the only time-dependent fields and neither enters `sourceInputDigest`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from git_memory.contracts.base import format_timestamp
from git_memory.contracts.canonical import digest
from git_memory.contracts.extraction import (
    CHUNKER_VERSION,
    DRAFT_BATCH_FORMAT,
    PROMPT_VERSION,
    ExtractionBinding,
    ExtractionContract,
    ExtractionPrompts,
    ExtractionTask,
    Lease,
    OwnerKeys,
    Provenance,
    SessionWindow,
    TaskContext,
    TaskSession,
    TurnEvidence,
)
from git_memory.contracts.extraction import Chunk as TaskChunk
from git_memory.contracts.host_records import CatalogItem, CitedTurn, RecallRecord
from git_memory.extract.chunk import TurnChunk, chunk_turns
from git_memory.extract.evidence import build_catalog, public_item
from git_memory.extract.prompts import EXTRACTION_PROMPT_VERSION, prompt_text
from git_memory.extract.select import SessionSelection, WindowSelection
from git_memory.extract.source import SourceTurn
from git_memory.extract.staging import AGENT_HOLDER, LEASE_MS
from git_memory.extract.transcript import serialize_chunk
from git_memory.sessions.query import TurnRecord

if TYPE_CHECKING:
    from git_memory.contracts.binding import RepositoryBinding

EXCERPT_CHARS = 480
_ZERO = "0" * 64


@dataclass(frozen=True)
class PlannedTask:
    """A task plus the host-only data stage needs to check and assess its answer."""

    task: ExtractionTask
    session_key: str
    chunk_ref: str
    catalog: tuple[CatalogItem, ...]
    turns: tuple[CitedTurn, ...]

    def host_record(self) -> RecallRecord:
        """The private record kept beside the task (strengths never leave the host)."""
        return RecallRecord(
            task=self.task,
            session_key=self.session_key,
            chunk_ref=self.chunk_ref,
            catalog=list(self.catalog),
            turns=list(self.turns),
        )


def build_tasks(
    selection: WindowSelection,
    binding: RepositoryBinding,
    database_uuid: str,
    now_ms: int,
    only: Collection[str] | None = None,
    *,
    replayed: Mapping[str, frozenset[int]] | None = None,
) -> list[PlannedTask]:
    """Every chunk of every selected session (of the sessions `only` names, when given) as a
    planned task, in session order; `replayed`: the selection's `replayed_turns`, when a
    caller planning it piece by piece has them already."""
    planned: list[PlannedTask] = []
    if replayed is None:
        replayed = replayed_turns(selection.sessions)
    for session in selection.sessions:
        if only is not None and session.session_key not in only:
            continue
        skip = replayed.get(session.session_key, frozenset())
        for chunk in chunk_turns(list(session.turns), skip=skip):
            planned.append(
                _plan(
                    selection,
                    session,
                    chunk,
                    binding=binding,
                    database_uuid=database_uuid,
                    now_ms=now_ms,
                )
            )
    return planned


def replayed_turns(sessions: Sequence[SessionSelection]) -> dict[str, frozenset[int]]:
    """Per session, the indexes of its turns that repeat, word for word, a turn of a session
    that started earlier: a resumed or forked session replays the turns of the one it
    continues, and they are handed out once, with the session they happened in."""
    seen: set[bytes] = set()
    skipped: dict[str, frozenset[int]] = {}
    # A resumed session copies the start times of the one it continues and adds turns: of
    # two sessions that start at the same moment, the one with fewer turns came first.
    ordered = sorted(
        sessions,
        key=lambda s: (
            min((r.started or "" for r in s.records), default=""),
            len(s.records),
            s.session_key,
        ),
    )
    for session in ordered:
        own = [_replay_key(record) for record in session.records]
        skipped[session.session_key] = frozenset(i for i, key in enumerate(own) if key in seen)
        seen.update(own)
    return skipped


def _replay_key(record: TurnRecord) -> bytes:
    """A turn's words and every tool call, whole, as one hash of the raw texts: the key is only
    compared within this run, and canonical JSON of large tool outputs cost most of a team's
    extraction (tests/perf/bench_extract_team.py)."""
    parts = [record.user_text or "", record.assistant_text or ""]
    for call in record.tool_calls:
        parts += [call.name, repr(call.input), "" if call.output is None else call.output]
    encoded = [part.encode("utf-8", "surrogatepass") for part in parts]
    # Each part's length first, so that no two ways of splitting the same text agree.
    lengths = b"".join(len(data).to_bytes(8, "big") for data in encoded)
    return hashlib.sha256(lengths + b"".join(encoded)).digest()


def _plan(
    selection: WindowSelection,
    session: SessionSelection,
    chunk: TurnChunk,
    *,
    binding: RepositoryBinding,
    database_uuid: str,
    now_ms: int,
) -> PlannedTask:
    catalog, turn_map = build_catalog(chunk)
    turns = [ct.turn for ct in chunk.turns]
    task = ExtractionTask(
        task_id="extract-pending",
        lease=Lease(holder=AGENT_HOLDER, expires_at=now_ms + LEASE_MS),
        binding=ExtractionBinding(
            database_uuid=database_uuid,
            owner=OwnerKeys(
                repository_key=binding.repository_key, worktree_key=binding.worktree_key
            ),
            source_input_digest=_ZERO,
            selection=selection.digests(),
            turn_revisions=sorted({t.revision for t in turns}),
            payload_digests=chunk.payload_digests(),
            delivery_edge_revisions=sorted({digest(e.pointer) for t in turns for e in t.edges}),
            prompt_version=PROMPT_VERSION,
            schema_version=DRAFT_BATCH_FORMAT,
            chunker_version=CHUNKER_VERSION,
            # The snapshot is the selected turns themselves, so its time is the newest of
            # them: deterministic, which keeps re-planning the same task idempotent.
            provenance=Provenance(
                snapshot_seq=str(len(turns)),
                evaluated_at=max(
                    (t.observed_at for t in turns if t.observed_at), default=format_timestamp_ms(0)
                ),
            ),
        ),
        session=TaskSession(
            project=binding.public_repository_identity,
            repository_key=binding.repository_key,
            time_window=_time_window(turns),
        ),
        evidence_catalog=[public_item(item) for item in catalog],
        chunk=TaskChunk(
            turn_range=chunk.turn_range,
            coverage=chunk.coverage(),
            turn_evidence=[
                TurnEvidence(turn_index=i, evidence_id=e) for i, e in sorted(turn_map.items())
            ],
            transcript=serialize_chunk(chunk, turn_map),
        ),
        context=TaskContext(scene_index_summary=None),
        contract=extraction_contract(),
    )
    source_digest = task.compute_source_input_digest()
    task = task.model_copy(
        update={
            "task_id": f"extract-{source_digest}",
            "binding": task.binding.model_copy(update={"source_input_digest": source_digest}),
        }
    )
    rng = chunk.turn_range
    chunk_ref = f"{session.session_key}:{rng.start}:{rng.end}:{source_digest}"
    return PlannedTask(
        task,
        session.session_key,
        chunk_ref,
        tuple(catalog),
        tuple(_turn_record(ct.index, ct.turn) for ct in chunk.turns),
    )


def extraction_contract() -> ExtractionContract:
    """The whole contract of an extraction task: its prompt and its answer's schema."""
    return ExtractionContract(
        prompts=ExtractionPrompts(
            prompt_version=EXTRACTION_PROMPT_VERSION,
            extraction=prompt_text(EXTRACTION_PROMPT_VERSION),
        )
    )


def format_timestamp_ms(ms: int) -> str:
    """Canonical UTC timestamp of epoch milliseconds."""
    return format_timestamp(datetime.fromtimestamp(ms / 1000, tz=UTC))


def _time_window(turns: list[SourceTurn]) -> SessionWindow | None:
    stamps = sorted(t.observed_at for t in turns if t.observed_at)
    return SessionWindow(start=stamps[0], end=stamps[-1]) if stamps else None


def _turn_record(index: int, turn: SourceTurn) -> CitedTurn:
    """What review shows of a cited turn, and what `occurred` dates come from."""
    lines = [
        f"{e.kind}: {' '.join(e.text.split())}"
        for e in turn.events
        if e.kind in ("user", "assistant")
    ]
    excerpt = " ".join(lines)
    if len(excerpt) > EXCERPT_CHARS:
        excerpt = excerpt[: EXCERPT_CHARS - 3] + "..."
    return CitedTurn(
        turn_index=index,
        session_key=turn.session_key,
        turn_key=turn.turn_key,
        revision=turn.revision,
        started=turn.observed_at,
        excerpt=excerpt,
    )
