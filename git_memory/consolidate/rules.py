"""Validation of a ConsolidationPatch against the current scenes, doctrine and entries (pure).

One bad operation rejects the whole patch. The checks, in order: structure (unique ids, one
writer per file, at most one doctrine operation and one scene create), references (known,
unique entry ids; merge sources), preconditions (create needs the target absent, update and
delete need it present), capacity (15 scenes; a create needs a reason from 12 on and is
forbidden from 14 on; at 15 the patch must reduce), then materialization: content normalized,
host heat put into the scene META, budgets counted in code points.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from git_memory.consolidate import heat as heat_rules
from git_memory.consolidate.capacity import check_capacity
from git_memory.consolidate.operation import PatchOperationFields
from git_memory.consolidate.scene_meta import (
    content_error,
    materialize_doctrine,
    materialize_scene,
    normalize_content,
)
from git_memory.contracts.consolidation import PatchOperation as PatchDocument
from git_memory.errors import GitMemoryError

if TYPE_CHECKING:
    from git_memory.contracts.consolidation import ConsolidationTask

POLICY_VERSION = "consolidation-policy@1"
DOCTRINE_NAME = "doctrine"
DOCTRINE_PATH = "doctrine.md"

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class PatchContext:
    """The current state a patch is validated against (from the ConsolidationTask)."""

    scene_heats: Mapping[str, int]  # name -> heat of every current scene
    doctrine_present: bool
    entry_ids: frozenset[str]  # entries of the task: the only ones a patch may cite


@dataclass(frozen=True)
class FileChange:
    """One file the patch writes or deletes, relative to the memory root."""

    path: str
    kind: Literal["write", "delete"]
    operation_id: str
    content: str | None = None


@dataclass(frozen=True)
class MaterializedOperation:
    """An operation as the host will apply it: normalized content with host heat."""

    operation_id: str
    op: str
    target: str
    name: str
    new_content: str | None
    based_on_entry_ids: tuple[str, ...]
    merge_sources: tuple[str, ...]
    rationale: str
    heat: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The operation document (what `statementTextDigest` is computed over)."""
        return PatchDocument(
            operation_id=self.operation_id,
            op=self.op,
            target=self.target,
            name=self.name,
            new_content=self.new_content,
            based_on_entry_ids=list(self.based_on_entry_ids),
            merge_sources=list(self.merge_sources),
            rationale=self.rationale,
        ).to_json()


@dataclass(frozen=True)
class ValidatedPatch:
    """A patch that passed every rule."""

    operations: list[MaterializedOperation]
    files: list[FileChange]  # writes first, then deletes, each sorted by path
    scene_count_before: int
    scene_count_after: int
    notes: list[str] = field(default_factory=list)

    @property
    def no_op(self) -> bool:
        """An empty patch: recorded as a visible no-op run, no candidate."""
        return not self.operations


def patch_error(rule: str, message: str, operation_id: str | None = None) -> GitMemoryError:
    """A structural rejection (`GM_PATCH_INVALID`, `details.rule` names the rule)."""
    return content_error(rule, message, operation_id)


def scene_path(name: str) -> str:
    """`scenes/<name>.md`, relative to the memory root."""
    return f"scenes/{name}.md"


def target_path(operation: PatchOperationFields) -> str:
    """The file an operation writes (paths come only from target + name)."""
    return DOCTRINE_PATH if operation.target == DOCTRINE_NAME else scene_path(operation.name)


# --- structure -------------------------------------------------------------------------


def _check_shape(operation: PatchOperationFields, context: PatchContext) -> None:
    oid = operation.operation_id
    if operation.op not in ("create", "update", "merge", "delete"):
        raise patch_error("op", f"unknown op {operation.op!r}", oid)
    if operation.target not in ("scene", DOCTRINE_NAME):
        raise patch_error("target", f"unknown target {operation.target!r}", oid)
    if not _SLUG.match(operation.name) or len(operation.name) > 64:
        raise patch_error("name", f"name {operation.name!r} is not a slug", oid)
    if not operation.rationale.strip():
        raise patch_error("rationale-required", "every operation needs a rationale", oid)
    _check_content_presence(operation)
    _check_entry_refs(operation, context)
    if operation.merge_sources and operation.op != "merge":
        raise patch_error("merge-sources-misplaced", "only a merge may carry mergeSources", oid)
    if operation.target == DOCTRINE_NAME:
        _check_doctrine(operation, context)
    else:
        _check_scene_preconditions(operation, context)


def _check_content_presence(operation: PatchOperationFields) -> None:
    oid = operation.operation_id
    if operation.op == "delete":
        if operation.new_content is not None:
            raise patch_error("delete-content", "a delete must have newContent null", oid)
        return
    if operation.new_content is None or not operation.new_content.strip():
        raise patch_error("content-required", f"a {operation.op} needs newContent", oid)
    if not operation.based_on_entry_ids:
        raise patch_error("entries-required", f"a {operation.op} must cite basedOnEntryIds", oid)


def _check_entry_refs(operation: PatchOperationFields, context: PatchContext) -> None:
    oid = operation.operation_id
    refs = list(operation.based_on_entry_ids)
    if len(set(refs)) != len(refs):
        raise patch_error("entry-ref-duplicate", "basedOnEntryIds repeats an entry", oid)
    unknown = sorted(set(refs) - context.entry_ids)
    if unknown:
        raise patch_error(
            "entry-ref-unknown", f"cites entries that are not in the task: {unknown}", oid
        )


def _check_doctrine(operation: PatchOperationFields, context: PatchContext) -> None:
    oid = operation.operation_id
    if operation.name != DOCTRINE_NAME:
        raise patch_error("doctrine-name", "doctrine operations are named 'doctrine'", oid)
    if operation.op == "merge":
        raise patch_error("doctrine-merge", "doctrine cannot be merged", oid)
    if operation.op == "create" and context.doctrine_present:
        raise patch_error("target-exists", "doctrine exists; update it instead", oid)
    if operation.op in ("update", "delete") and not context.doctrine_present:
        raise patch_error("target-missing", f"there is no doctrine to {operation.op}", oid)


def _check_scene_preconditions(operation: PatchOperationFields, context: PatchContext) -> None:
    oid, name = operation.operation_id, operation.name
    exists = name in context.scene_heats
    if operation.op == "create" and exists:
        raise patch_error("target-exists", f"scene {name!r} exists; update it instead", oid)
    if operation.op in ("update", "delete") and not exists:
        raise patch_error("target-missing", f"there is no scene {name!r} to {operation.op}", oid)
    if operation.op == "merge":
        _check_merge(operation, context)


def _check_merge(operation: PatchOperationFields, context: PatchContext) -> None:
    oid, sources = operation.operation_id, list(operation.merge_sources)
    if len(sources) < 2 or len(set(sources)) != len(sources):
        raise patch_error("merge-sources", "a merge needs at least 2 distinct sources", oid)
    missing = sorted(set(sources) - set(context.scene_heats))
    if missing:
        raise patch_error("merge-sources", f"merge sources are not scenes: {missing}", oid)
    if operation.name in context.scene_heats and operation.name not in sources:
        raise patch_error(
            "merge-target", "an existing merge target must be one of its sources", oid
        )


def _check_cross_operation(operations: Sequence[PatchOperationFields]) -> None:
    ids = [operation.operation_id for operation in operations]
    if len(set(ids)) != len(ids):
        raise patch_error("operation-id-duplicate", "operation ids must be unique")
    if sum(operation.target == DOCTRINE_NAME for operation in operations) > 1:
        raise patch_error("doctrine-op-limit", "a patch has at most one doctrine operation")
    creates = [o for o in operations if o.target == "scene" and o.op == "create"]
    if len(creates) > 1:
        raise patch_error("scene-create-limit", "a patch creates at most one scene")
    paths = [target_path(operation) for operation in operations]
    if len(set(paths)) != len(paths):
        raise patch_error("one-writer-per-file", "two operations write the same file")
    _check_merge_sources_exclusive(operations, set(paths))


def _check_merge_sources_exclusive(
    operations: Sequence[PatchOperationFields], written: set[str]
) -> None:
    fed: set[str] = set()
    for operation in operations:
        if operation.op != "merge":
            continue
        for source in operation.merge_sources:
            if source in fed:
                raise patch_error(
                    "merge-source-reused",
                    f"scene {source!r} feeds more than one merge",
                    operation.operation_id,
                )
            fed.add(source)
            if source != operation.name and scene_path(source) in written:
                raise patch_error(
                    "merge-source-written",
                    f"merge source {source!r} is also written by another operation",
                    operation.operation_id,
                )


# --- materialization -------------------------------------------------------------------


def _heat_of(operation: PatchOperationFields, context: PatchContext) -> int | None:
    if operation.target != "scene" or operation.op == "delete":
        return None
    if operation.op == "create":
        return heat_rules.create_heat()
    if operation.op == "update":
        return heat_rules.update_heat(context.scene_heats[operation.name], operation.name)
    heats = [context.scene_heats[source] for source in operation.merge_sources]
    return heat_rules.merge_heat(heats, operation.name)


def _materialize(operation: PatchOperationFields, context: PatchContext) -> MaterializedOperation:
    oid = operation.operation_id
    heat = _heat_of(operation, context)
    content: str | None = None
    if operation.new_content is not None:
        normalized = normalize_content(operation.new_content, oid)
        if operation.target == DOCTRINE_NAME:
            content = materialize_doctrine(normalized, oid)
        else:
            assert heat is not None
            content = materialize_scene(normalized, heat, oid)
    return MaterializedOperation(
        operation_id=oid,
        op=operation.op,
        target=operation.target,
        name=operation.name,
        new_content=content,
        based_on_entry_ids=tuple(operation.based_on_entry_ids),
        merge_sources=tuple(operation.merge_sources),
        rationale=operation.rationale,
        heat=heat,
    )


def _file_changes(operations: Sequence[MaterializedOperation]) -> list[FileChange]:
    writes: list[FileChange] = []
    deletes: list[FileChange] = []
    for operation in operations:
        path = DOCTRINE_PATH if operation.target == DOCTRINE_NAME else scene_path(operation.name)
        if operation.op == "delete":
            deletes.append(FileChange(path, "delete", operation.operation_id))
            continue
        writes.append(FileChange(path, "write", operation.operation_id, operation.new_content))
        for source in operation.merge_sources:
            if source != operation.name:
                deletes.append(FileChange(scene_path(source), "delete", operation.operation_id))
    return sorted(writes, key=lambda c: c.path) + sorted(deletes, key=lambda c: c.path)


def validate_patch(
    operations: Sequence[PatchOperationFields], context: PatchContext
) -> ValidatedPatch:
    """Check every rule and materialize the patch, or raise the first violation.

    Scene content comes back in canonical META form with the host heat; `files` lists the
    writes, then the deletes (a merge deletes its non-target sources).
    """
    _check_cross_operation(operations)
    for operation in operations:
        _check_shape(operation, context)
    final = check_capacity(operations, context.scene_heats)
    materialized = [_materialize(o, context) for o in operations]
    return ValidatedPatch(
        operations=materialized,
        files=_file_changes(materialized),
        scene_count_before=len(context.scene_heats),
        scene_count_after=final,
    )


def context_from_task(task: ConsolidationTask) -> PatchContext:
    """The PatchContext of a ConsolidationTask@v1 (its scenes, doctrine and entries)."""
    return PatchContext(
        scene_heats={scene.name: scene.heat for scene in task.scenes},
        doctrine_present=task.doctrine is not None,
        entry_ids=frozenset(entry.entry_id for entry in task.entries),
    )
