"""What a reviewer reads for one patch operation: `OP target name`, path, sources, rationale
and a `--- current` / `+++ proposed` diff of every file it writes or deletes."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from git_memory.consolidate.rules import (
    DOCTRINE_NAME,
    FileChange,
    MaterializedOperation,
    ValidatedPatch,
    scene_path,
)
from git_memory.formats.controls import escape_controls

if TYPE_CHECKING:
    from git_memory.contracts.consolidation import ConsolidationTask


def _current(task: ConsolidationTask, path: str) -> str:
    if path == "doctrine.md":
        return "" if task.doctrine is None else str(task.doctrine.content)
    for scene in task.scenes:
        if scene_path(scene.name) == path:
            return str(scene.content)
    return ""


def _diff(path: str, old: str, new: str) -> str:
    lines = difflib.unified_diff(
        escape_controls(old).splitlines(keepends=True),
        escape_controls(new).splitlines(keepends=True),
        fromfile=f"current/{path}" if old else "/dev/null",
        tofile=f"proposed/{path}" if new else "/dev/null",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _changes(op: MaterializedOperation, patch: ValidatedPatch) -> list[FileChange]:
    return [f for f in patch.files if f.operation_id == op.operation_id]


def operation_text(
    op: MaterializedOperation, task: ConsolidationTask, patch: ValidatedPatch
) -> str:
    """The statement text of one operation (the human confirms exactly this)."""
    lines = [f"{op.op.upper()} {op.target} {op.name}"]
    changes = _changes(op, patch)
    for change in changes:
        lines.append(f"{'delete' if change.kind == 'delete' else 'path'}: {change.path}")
    if op.merge_sources:
        lines.append("sources: " + ", ".join(op.merge_sources))
    if op.based_on_entry_ids:
        lines.append("entries: " + ", ".join(op.based_on_entry_ids))
    if op.heat is not None:
        lines.append(f"heat: {op.heat} (computed by git memory)")
    lines.append(f"rationale: {op.rationale}")
    for change in changes:
        old = _current(task, change.path)
        lines.append(_diff(change.path, old, change.content or "").rstrip("\n"))
    return "\n".join(line for line in lines if line)


def patch_summary(patch: ValidatedPatch) -> str:
    """One line per operation, for the review item's content."""
    parts = [
        f"{op.op.upper()} {op.target} {op.name}"
        + ("" if op.target == DOCTRINE_NAME else f" → scenes/{op.name}.md")
        for op in patch.operations
    ]
    return (
        f"consolidation: {len(patch.operations)} operation(s), scenes "
        f"{patch.scene_count_before} → {patch.scene_count_after}\n" + "\n".join(parts)
    )
