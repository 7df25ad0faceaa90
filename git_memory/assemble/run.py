"""`assemble`: put approved memory into the provider's context file and skill directory.

Everything is planned before anything is written: the block splice, every skill projection
and the manifest. A projection somebody edited is a conflict that stops the whole run with
nothing written. Writes are no-follow and atomic; a file is rewritten only when its bytes
change, so a second run is a no-op.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from git_memory.assemble import projection as proj
from git_memory.assemble.agent_files import read_agent_file
from git_memory.assemble.block import Splice, SpliceAction, splice_block
from git_memory.assemble.compose import RenderSettings, render
from git_memory.assemble.known import known_text
from git_memory.assemble.once import Carriers, pointer_block
from git_memory.assemble.render import (
    NEW_FILE_HEADERS,
    SKILL_DIRS,
    TARGET_FILES,
    Provider,
    Rendered,
)
from git_memory.assemble.scoped import (
    ScopedPlan,
    load_record,
    missing_scope_notes,
    plan_scoped,
    save_record,
    write_worktree_file,
)
from git_memory.assemble.snapshot import MemorySnapshot
from git_memory.failpoints import failpoint
from git_memory.formats.controls import escape_controls


@dataclass(frozen=True)
class ProjectionResult:
    """One projected skill file and what assemble did (or would do) to it."""

    name: str
    path: str
    action: proj.ProjectionAction


@dataclass(frozen=True)
class AssembleResult:
    """What an assemble run changed (or, dry, would change)."""

    provider: Provider
    target: str
    target_action: SpliceAction
    projections: list[ProjectionResult]
    diff: str
    dry_run: bool
    block: Rendered
    notes: list[str] = field(default_factory=list)
    scoped: list[ScopedPlan] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether any worktree file is (or would be) written or removed."""
        touched = ("create", "update", "remove")
        return (
            self.target_action != "unchanged"
            or any(p.action in touched for p in self.projections)
            or any(s.action != "unchanged" for s in self.scoped)
        )


@dataclass(frozen=True)
class AssembleInputs:
    """Where and how to assemble for one provider: the worktree, its memory root, the budget,
    the private skill manifest and the private cache of the last rendering."""

    root: Path
    memory_root: str
    budget: int
    manifest_path: Path
    cache_path: Path | None = None
    scoped_record: Path | None = None  # None: no scoped blocks are written
    # Another agent's files that carry this agent's memory (`once.py`); default: none.
    carriers: Carriers = field(default_factory=Carriers)


def _text(data: bytes | None) -> list[str]:
    return escape_controls((data or b"").decode("utf-8", "replace")).splitlines(keepends=True)


def file_diff(path: str, old: bytes | None, new: bytes | None) -> str:
    """A unified diff of one file (`/dev/null` for a side that does not exist)."""
    lines = difflib.unified_diff(
        _text(old),
        _text(new),
        fromfile=f"a/{path}" if old is not None else "/dev/null",
        tofile=f"b/{path}" if new is not None else "/dev/null",
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


def _projection_diffs(
    skill_dir: str,
    steps: Iterable[proj.ProjectionStep],
    projected: dict[str, bytes | None],
) -> list[str]:
    diffs = []
    for step in steps:
        path = f"{skill_dir}/{step.name}/{proj.SKILL_FILE}"
        new = step.data if step.action in ("create", "update") else None
        diffs.append(file_diff(path, projected.get(step.name), new))
    return diffs


@dataclass(frozen=True)
class AssemblyPlan:
    """Everything assemble would write, computed before anything is written."""

    provider: Provider
    target: str
    current: bytes | None
    splice: Splice
    manifest: proj.Manifest
    projected: dict[str, bytes | None]
    projection: proj.ProjectionPlan
    rendered: Rendered
    scoped: list[ScopedPlan] = field(default_factory=list)

    @property
    def skill_dir(self) -> str:
        """`.claude/skills`, `.codex/skills`, or "" for an agent without a skill directory."""
        return SKILL_DIRS.get(self.provider, "")

    def diff(self) -> str:
        """Unified diffs of every file the plan changes."""
        diffs = []
        if self.splice.action != "unchanged":
            diffs.append(file_diff(self.target, self.current, self.splice.data))
        diffs += _projection_diffs(self.skill_dir, self.projection.changes, self.projected)
        diffs += [
            file_diff(s.path, s.current, s.data) for s in self.scoped if s.action != "unchanged"
        ]
        return "".join(diffs)


def plan_assembly(
    inputs: AssembleInputs, provider: Provider, snapshot: MemorySnapshot, *, save: bool = False
) -> AssemblyPlan:
    """Render the block, read the target file, the projections and the manifest; plan.

    Raises `GM_ASSEMBLY_CONFLICT` when a projection was edited by someone else. `save` records
    a fresh rendering in the cache.
    """
    target = TARGET_FILES[provider]
    settings = RenderSettings(
        "block",
        provider,
        inputs.memory_root,
        inputs.budget,
        cache_path=inputs.cache_path,
        known=known_text(inputs.root, target, NEW_FILE_HEADERS.get(provider, "")),
    )
    carrier = inputs.carriers.root
    rendered = (
        pointer_block(provider, carrier) if carrier else render(snapshot, settings, save=save)
    )
    current = read_agent_file(inputs.root, target)
    manifest = proj.load_manifest(inputs.manifest_path)
    skill_dir = SKILL_DIRS.get(provider)
    skills = snapshot.files.skills if skill_dir else {}
    if not skill_dir:
        # No skill directory: nothing is projected, and nothing was.
        skill_dir, manifest = "", proj.Manifest(inputs.manifest_path)
    names = sorted(set(skills) | set(manifest.files))
    projected = {name: proj.read_projection(inputs.root, skill_dir, name) for name in names}
    projection = proj.plan_projection(skills, projected, manifest.files)
    if projection.conflicts:
        raise proj.conflict_error(skill_dir, projection.conflicts)
    header = NEW_FILE_HEADERS.get(provider, "").encode()
    splice = splice_block(header if current is None else current, rendered.text)
    scoped = []
    if inputs.scoped_record is not None:
        recorded = load_record(inputs.scoped_record)
        scoped = plan_scoped(
            inputs.root,
            provider,
            snapshot,
            settings,
            recorded,
            save=save,
            carried=inputs.carriers.scoped,
        )
    return AssemblyPlan(
        provider, target, current, splice, manifest, projected, projection, rendered, scoped
    )


def _result(plan: AssemblyPlan, dry_run: bool, notes: list[str]) -> AssembleResult:
    skill_dir = plan.skill_dir
    notes = [*notes, plan.manifest.problem] if plan.manifest.problem else list(notes)
    return AssembleResult(
        provider=plan.provider,
        target=plan.target,
        target_action=plan.splice.action,
        projections=[
            ProjectionResult(s.name, f"{skill_dir}/{s.name}/{proj.SKILL_FILE}", s.action)
            for s in plan.projection.steps
        ],
        diff=plan.diff(),
        dry_run=dry_run,
        block=plan.rendered,
        notes=notes,
        scoped=plan.scoped,
    )


def assemble(
    inputs: list[tuple[AssembleInputs, Provider]],
    snapshot: MemorySnapshot,
    *,
    dry_run: bool,
) -> list[AssembleResult]:
    """Plan every provider's files, then (unless `dry_run`) write them all.

    Planning everything first means a conflict in one provider's files leaves every file of
    every provider untouched.
    """
    plans = [
        (item, plan_assembly(item, provider, snapshot, save=not dry_run))
        for item, provider in inputs
    ]
    if not dry_run:
        for item, plan in plans:
            _apply(item, plan)
    notes = list(snapshot.files.skipped)
    if any(item.scoped_record is not None for item, _ in inputs):
        notes += missing_scope_notes(inputs[0][0].root, snapshot)
    if snapshot.coverage != "complete":
        notes.append(
            "entry files changed while they were read; some entries may be missing "
            "(run assemble again)"
        )
    return [_result(plan, dry_run, notes) for _, plan in plans]


def _apply(inputs: AssembleInputs, plan: AssemblyPlan) -> None:
    if plan.splice.action != "unchanged":
        write_worktree_file(inputs.root, plan.target, plan.splice.data)
    for scoped in plan.scoped:
        if scoped.action != "unchanged":
            write_worktree_file(inputs.root, scoped.path, scoped.data)
    if inputs.scoped_record is not None and plan.scoped:
        save_record(inputs.scoped_record, plan.scoped)
    for step in plan.projection.changes:
        proj.apply_step(inputs.root, plan.skill_dir, step)
    # A crash here leaves projections without their records: the next run finds them equal
    # to their sources and records them then, so nothing is lost or overwritten.
    failpoint("assemble.before-manifest")
    manifest = plan.manifest
    if plan.projection.manifest != manifest.files or manifest.problem:
        proj.save_manifest(inputs.manifest_path, plan.provider, plan.projection.manifest)
