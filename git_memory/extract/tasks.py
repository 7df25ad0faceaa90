"""Build ExtractionTask@v1 documents from selected sessions, deterministically.

The same sessions give byte-identical tasks: every digest is canonical, the lease and the
provenance timestamp are the only time-dependent fields and neither enters `sourceInputDigest`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from git_memory.contracts.base import format_timestamp
from git_memory.contracts.canonical import digest
from git_memory.contracts.extraction import (
    CHUNKER_VERSION,
    DRAFT_BATCH_FORMAT,
    PROMPT_VERSION,
    ExtractionTask,
)
from git_memory.extract.chunk import Chunk, chunk_turns
from git_memory.extract.evidence import CatalogItem, build_catalog
from git_memory.extract.prompts import EXTRACTION_PROMPT_VERSION, prompt_text
from git_memory.extract.select import Selection, SessionSelection
from git_memory.extract.transcript import serialize_chunk

if TYPE_CHECKING:
    from git_memory.contracts.binding import RepositoryBinding

AGENT_HOLDER = "git-memory-agent"
LEASE_MS = 300_000
EXCERPT_CHARS = 480
_ZERO = "0" * 64


@dataclass(frozen=True)
class PlannedTask:
    """A task plus the host-only data stage needs to check and assess its answer."""

    task: ExtractionTask
    session_key: str
    chunk_ref: str
    catalog: tuple[CatalogItem, ...]
    turns: tuple[dict[str, Any], ...]

    def host_record(self) -> dict[str, Any]:
        """The private record kept beside the task (strengths never leave the host)."""
        return {
            "task": self.task.to_json(),
            "sessionKey": self.session_key,
            "chunkRef": self.chunk_ref,
            "catalog": [
                {
                    "evidenceId": i.evidence_id,
                    "pointer": i.pointer,
                    "pointerDigest": i.pointer_digest,
                    "strength": i.strength,
                    "relations": list(i.relations),
                    "limitations": list(i.limitations),
                }
                for i in self.catalog
            ],
            "turns": list(self.turns),
        }


def build_tasks(
    selection: Selection, binding: RepositoryBinding, database_uuid: str, now_ms: int
) -> list[PlannedTask]:
    """Every chunk of every selected session as a planned task, in session order."""
    planned: list[PlannedTask] = []
    for session in selection.sessions:
        for chunk in chunk_turns(list(session.turns)):
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


def _plan(
    selection: Selection,
    session: SessionSelection,
    chunk: Chunk,
    *,
    binding: RepositoryBinding,
    database_uuid: str,
    now_ms: int,
) -> PlannedTask:
    catalog, turn_map = build_catalog(chunk)
    turns = [ct.turn for ct in chunk.turns]
    document = {
        "format": "git-memory-extraction-task@v1",
        "taskId": "extract-pending",
        "lease": {"holder": AGENT_HOLDER, "expiresAt": now_ms + LEASE_MS},
        "binding": {
            "databaseUuid": database_uuid,
            "owner": {"repositoryKey": binding.repository_key, "worktreeKey": binding.worktree_key},
            "sourceInputDigest": _ZERO,
            "selection": selection.digests().to_json(),
            "turnRevisions": sorted({t.revision for t in turns}),
            "payloadDigests": chunk.payload_digests(),
            "deliveryEdgeRevisions": sorted({digest(e.pointer) for t in turns for e in t.edges}),
            "promptVersion": PROMPT_VERSION,
            "schemaVersion": DRAFT_BATCH_FORMAT,
            "chunkerVersion": CHUNKER_VERSION,
            # The snapshot is the selected turns themselves, so its time is the newest of
            # them: deterministic, which keeps re-planning the same task idempotent.
            "provenance": {
                "snapshotSeq": str(len(turns)),
                "evaluatedAt": max(
                    (t.observed_at for t in turns if t.observed_at), default=format_timestamp_ms(0)
                ),
            },
        },
        "session": {
            "project": binding.public_repository_identity,
            "repositoryKey": binding.repository_key,
            "timeWindow": _time_window(turns),
        },
        "evidenceCatalog": [item.public() for item in catalog],
        "chunk": {
            "turnRange": chunk.turn_range,
            "coverage": chunk.coverage(),
            "turnEvidence": [
                {"turnIndex": i, "evidenceId": e} for i, e in sorted(turn_map.items())
            ],
            "transcript": serialize_chunk(chunk, turn_map),
        },
        "context": {"sceneIndexSummary": None},
        "contract": {
            "draftSchema": DRAFT_BATCH_FORMAT,
            "prompts": {
                "promptVersion": EXTRACTION_PROMPT_VERSION,
                "extraction": prompt_text(EXTRACTION_PROMPT_VERSION),
            },
        },
    }
    draft = ExtractionTask.model_validate(document)
    source_digest = draft.compute_source_input_digest()
    document["taskId"] = f"extract-{source_digest}"
    document["binding"]["sourceInputDigest"] = source_digest  # type: ignore[index]
    task = ExtractionTask.model_validate(document)
    rng = chunk.turn_range
    chunk_ref = f"{session.session_key}:{rng['start']}:{rng['end']}:{source_digest}"
    return PlannedTask(
        task,
        session.session_key,
        chunk_ref,
        tuple(catalog),
        tuple(_turn_record(ct.index, ct.turn) for ct in chunk.turns),
    )


def format_timestamp_ms(ms: int) -> str:
    """Canonical UTC timestamp of epoch milliseconds."""
    from datetime import UTC, datetime

    return format_timestamp(datetime.fromtimestamp(ms / 1000, tz=UTC))


def _time_window(turns: list[Any]) -> dict[str, str] | None:
    stamps = sorted(t.observed_at for t in turns if t.observed_at)
    return {"start": stamps[0], "end": stamps[-1]} if stamps else None


def _turn_record(index: int, turn: Any) -> dict[str, Any]:
    """What review shows of a cited turn, and what `occurred` dates come from."""
    lines = [
        f"{e.kind}: {' '.join(e.text.split())}"
        for e in turn.events
        if e.kind in ("user", "assistant")
    ]
    excerpt = " ".join(lines)
    if len(excerpt) > EXCERPT_CHARS:
        excerpt = excerpt[: EXCERPT_CHARS - 3] + "..."
    return {
        "turnIndex": index,
        "sessionKey": turn.session_key,
        "turnKey": turn.turn_key,
        "revision": turn.revision,
        "started": turn.observed_at,
        "excerpt": excerpt,
    }
