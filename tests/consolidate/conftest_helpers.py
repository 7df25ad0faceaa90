"""Builders shared by the consolidation rule tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from git_memory.consolidate.rules import PatchContext, ValidatedPatch, validate_patch
from git_memory.contracts.consolidation import PatchOperation


def scene_text(
    summary: str = "Release flow", body: str = "## Release\n- tag it", heat: int | None = None
) -> str:
    heat_line = f"heat: {heat}\n" if heat is not None else ""
    return (
        "-----META-START-----\ncreated: 2026-01-02\nupdated: 2026-01-03\n"
        f'summary: "{summary}"\n{heat_line}-----META-END-----\n{body}'
    )


def op(**fields: Any) -> PatchOperation:
    """A valid scene update of `alpha` unless fields say otherwise."""
    base: dict[str, Any] = {
        "operationId": "op-1",
        "op": "update",
        "target": "scene",
        "name": "alpha",
        "newContent": scene_text(),
        "basedOnEntryIds": ["e1"],
        "mergeSources": [],
        "rationale": "refresh the release steps",
    }
    base.update(fields)
    return PatchOperation(**base)


@dataclass(frozen=True)
class RawOp:
    """An operation the contract model would refuse (the rules must refuse it too)."""

    operation_id: str = "op-1"
    op: str = "update"
    target: str = "scene"
    name: str = "alpha"
    new_content: str | None = field(default_factory=scene_text)
    based_on_entry_ids: Sequence[str] = ("e1",)
    merge_sources: Sequence[str] = ()
    rationale: str = "because"


def context(
    scenes: dict[str, int] | None = None,
    doctrine: bool = True,
    entries: Sequence[str] = ("e1", "e2"),
) -> PatchContext:
    return PatchContext(
        scene_heats={"alpha": 2, "beta": 5, "gamma": 1} if scenes is None else scenes,
        doctrine_present=doctrine,
        entry_ids=frozenset(entries),
    )


def many_scenes(count: int) -> dict[str, int]:
    return {f"s{n:02d}": 1 for n in range(count)}


def validate(operations: Sequence[Any], ctx: PatchContext | None = None) -> ValidatedPatch:
    return validate_patch(operations, ctx or context())
