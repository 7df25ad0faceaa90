"""The evidence catalog of a chunk: opaque public ids, host-side strength and limitations.

Public entries are `{evidenceId, kind, display}` only (an id is unique to its chunk: the same
pointer cited from two tasks has two ids); the pointer's digest, relation, strength and
limitations stay in the host's internal index so a model can never claim or inflate them
(and a task of many paths does not carry a digest per path that nothing reads).
"""

from __future__ import annotations

from dataclasses import dataclass

from git_memory.contracts.canonical import digest
from git_memory.contracts.extraction import EvidenceItem
from git_memory.contracts.host_records import CatalogItem, EvidencePointer, EvidenceStrength
from git_memory.extract.chunk import TurnChunk
from git_memory.extract.source import STRENGTH_ORDER

KIND_ORDER = {"commit": 0, "turn": 1, "path": 2}


def public_item(item: CatalogItem) -> EvidenceItem:
    """The catalog entry a model sees (no strength, relations or limitations)."""
    fields = {
        "evidence_id": item.evidence_id,
        "kind": item.kind,
        "display": display(item.pointer),
    }
    return EvidenceItem.model_validate(fields, by_alias=False, by_name=True)


def display(pointer: EvidencePointer) -> str:
    """`commit <h> @ <repo>` | `commit <h>` | `path <p>` | `turn <i>`."""
    if pointer["kind"] == "commit":
        repository = pointer.get("repository")
        suffix = f" @ {repository}" if repository else ""
        return f"commit {pointer['commitHash']}{suffix}"
    if pointer["kind"] == "path":
        return f"path {pointer['path']}"
    return f"turn {pointer['turnIndex']}"


@dataclass
class _Merged:
    pointer: EvidencePointer
    strength: EvidenceStrength
    relations: set[str]
    limitations: set[str]


def _add(
    merged: dict[str, _Merged],
    pointer: EvidencePointer,
    relation: str,
    strength: EvidenceStrength,
    limitations: tuple[str, ...],
) -> None:
    key = digest(pointer)
    current = merged.get(key)
    if current is None:
        merged[key] = _Merged(pointer, strength, {relation}, set(limitations))
        return
    if STRENGTH_ORDER[strength] < STRENGTH_ORDER[current.strength]:
        current.strength = strength
    current.relations.add(relation)
    current.limitations.update(limitations)


def chunk_scope(chunk: TurnChunk) -> str:
    """What makes a chunk's evidence ids its own: its session and first turn. A turn pointer
    names only a turn index, so without it `turn 3` of two sessions (or chunks) would get the
    same id, and a citation copied from another task would point at the wrong turn."""
    return digest({"session": chunk.turns[0].turn.session_key, "start": chunk.turns[0].index})


def build_catalog(chunk: TurnChunk) -> tuple[list[CatalogItem], dict[int, str]]:
    """The chunk's catalog (ordered kind, pointerDigest) and its turnIndex → evidenceId map."""
    merged: dict[str, _Merged] = {}
    for chunk_turn in chunk.turns:
        _add(
            merged,
            {"kind": "turn", "turnIndex": chunk_turn.index},
            "session-contains-turn",
            "direct",
            ("source-local-only",),
        )
        for edge in chunk_turn.turn.edges:
            _add(merged, edge.pointer, edge.relation, edge.strength, edge.limitations)
    ordered = sorted(merged.items(), key=lambda kv: (KIND_ORDER[str(kv[1].pointer["kind"])], kv[0]))
    scope = chunk_scope(chunk)
    items = [
        CatalogItem(
            evidence_id=f"ev-{position}-{digest({'chunk': scope, 'pointer': key})[:12]}",
            pointer=m.pointer,
            pointer_digest=key,
            strength=m.strength,
            relations=tuple(sorted(m.relations)),
            limitations=tuple(sorted(m.limitations)),
        )
        for position, (key, m) in enumerate(ordered, start=1)
    ]
    turn_map = {int(i.pointer["turnIndex"]): i.evidence_id for i in items if i.kind == "turn"}
    return items, turn_map
