"""Project skills into `.claude/skills/` / `.codex/skills/` and remember what was written.

The private manifest (`<state home>/artifacts/skill-assembly/<provider>-<worktreeKey>.json`)
holds the sha256 of every projection this tool wrote. That is what tells a projection the tool
may replace (still exactly what it wrote) from one somebody edited (a conflict: never
overwritten), and what lets a projection of a deleted skill be pruned safely.

`plan_projection` is pure; `read_projections` / `apply_projection` do the no-follow I/O.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from git_memory import safefs
from git_memory.contracts.canonical import sha256_hex
from git_memory.errors import GitMemoryError
from git_memory.formats import bounded_json
from git_memory.paths import ARTIFACTS_DIR, read_private, write_private_atomic

ProjectionAction = Literal["create", "update", "unchanged", "remove", "kept-edited", "forget"]
MANIFEST_FORMAT = "git-memory-skill-assembly@v1"
SKILL_FILE = "SKILL.md"


@dataclass(frozen=True)
class ProjectionStep:
    """What happens to one projected skill."""

    name: str
    action: ProjectionAction
    data: bytes | None = None  # the bytes to write (create/update)
    expected: str | None = None  # sha256 of the projection when planned (update/remove)


@dataclass(frozen=True)
class ProjectionPlan:
    """Every step, the conflicts that block the plan, and the manifest after it."""

    steps: list[ProjectionStep]
    conflicts: list[str]
    manifest: dict[str, str]

    @property
    def changes(self) -> list[ProjectionStep]:
        """Steps that touch the worktree."""
        return [step for step in self.steps if step.action in ("create", "update", "remove")]


def _plan_source(name: str, source: bytes, current: bytes | None, recorded: str | None) -> str:
    """The action for a skill that exists in the memory root."""
    if current is None:
        return "create"
    digest = sha256_hex(current)
    if digest == sha256_hex(source):
        return "unchanged"
    if recorded is not None and digest == recorded:
        return "update"
    return "conflict"


def _plan_stale(current: bytes | None, recorded: str) -> ProjectionAction:
    """The action for a projection whose skill no longer exists."""
    if current is None:
        return "forget"
    return "remove" if sha256_hex(current) == recorded else "kept-edited"


def plan_projection(
    sources: Mapping[str, bytes],
    projected: Mapping[str, bytes | None],
    manifest: Mapping[str, str],
) -> ProjectionPlan:
    """Decide each projection from the source skills, what is on disk and the manifest.

    `projected` holds the current projection bytes (None when absent) for every name in
    `sources` and in `manifest`.
    """
    steps: list[ProjectionStep] = []
    conflicts: list[str] = []
    new_manifest: dict[str, str] = {}
    for name in sorted(sources):
        action = _plan_source(name, sources[name], projected.get(name), manifest.get(name))
        if action == "conflict":
            conflicts.append(name)
            if name in manifest:
                new_manifest[name] = manifest[name]
            continue
        data = sources[name] if action in ("create", "update") else None
        steps.append(ProjectionStep(name, action, data, manifest.get(name)))  # type: ignore[arg-type]
        new_manifest[name] = sha256_hex(sources[name])
    for name in sorted(set(manifest) - set(sources)):
        stale = _plan_stale(projected.get(name), manifest[name])
        steps.append(ProjectionStep(name, stale, expected=manifest[name]))
        if stale == "kept-edited":
            # Still reported on every run until someone removes or adopts the file.
            new_manifest[name] = manifest[name]
    return ProjectionPlan(steps=steps, conflicts=conflicts, manifest=new_manifest)


@dataclass
class Manifest:
    """The private record of what was projected for one provider in one worktree."""

    path: Path
    files: dict[str, str] = field(default_factory=dict)
    problem: str | None = None  # set when an unreadable manifest was ignored


def manifest_path(state_home: Path, provider: str, worktree_key: str) -> Path:
    """`<state home>/artifacts/skill-assembly/<provider>-<worktreeKey>.json`."""
    return state_home / ARTIFACTS_DIR / "skill-assembly" / f"{provider}-{worktree_key}.json"


def load_manifest(path: Path) -> Manifest:
    """Read the manifest; a missing one is empty, an unreadable one is ignored and reported.

    Ignoring it is the safe direction: without records nothing that differs from its source
    is overwritten and nothing is pruned.
    """
    try:
        document = bounded_json.loads(read_private(path))
    except FileNotFoundError:
        return Manifest(path)
    except (OSError, ValueError) as exc:
        return Manifest(path, problem=f"ignored an unreadable skill manifest ({exc})")
    files = document.get("files") if isinstance(document, dict) else None
    if not isinstance(files, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in files.items()
    ):
        return Manifest(path, problem="ignored a skill manifest of an unknown shape")
    return Manifest(path, files=dict(files))


def save_manifest(path: Path, provider: str, files: Mapping[str, str]) -> None:
    """Write the manifest privately and atomically."""
    document = {
        "format": MANIFEST_FORMAT,
        "provider": provider,
        "files": dict(sorted(files.items())),
    }
    write_private_atomic(path, (json.dumps(document, indent=2) + "\n").encode("utf-8"))


def _projection_parts(skill_dir: str, name: str) -> list[str]:
    return [*safefs.split_relative(skill_dir), name]


def read_projection(root: Path, skill_dir: str, name: str) -> bytes | None:
    """Current bytes of `<skill_dir>/<name>/SKILL.md`, None when absent (no-follow)."""
    return safefs.read_file_nofollow(root, f"{skill_dir}/{name}/{SKILL_FILE}")


def conflict_error(skill_dir: str, names: list[str]) -> GitMemoryError:
    """The refusal when projections were edited by someone else."""
    paths = [f"{skill_dir}/{name}/{SKILL_FILE}" for name in names]
    return GitMemoryError(
        "GM_ASSEMBLY_CONFLICT",
        f"{len(paths)} skill projection(s) were changed outside git memory: {', '.join(paths)}",
        hint=(
            "nothing was written; move the edits into the memory root's skill (stage an "
            "update) or delete the projection, then run assemble again"
        ),
        details={"paths": paths},
    )


def _still_expected(dir_fd: int, step: ProjectionStep, skill_dir: str) -> None:
    current = safefs.read_at(dir_fd, SKILL_FILE, f"{skill_dir}/{step.name}/{SKILL_FILE}")
    if current is None or sha256_hex(current) != step.expected:
        raise conflict_error(skill_dir, [step.name])


def apply_step(root: Path, skill_dir: str, step: ProjectionStep) -> None:
    """Perform one create/update/remove step below the worktree root, no-follow.

    The file is re-checked right before it is touched, so an edit made after planning is a
    conflict too.
    """
    parts = _projection_parts(skill_dir, step.name)
    if step.action in ("create", "update"):
        assert step.data is not None
        with safefs.open_dir(root, parts, create=True) as dir_fd:
            if step.action == "create":
                try:
                    safefs.create_file_at(dir_fd, SKILL_FILE, step.data)
                except FileExistsError:
                    raise conflict_error(skill_dir, [step.name]) from None
                return
            _still_expected(dir_fd, step, skill_dir)
            safefs.replace_file_at(dir_fd, SKILL_FILE, step.data)
    elif step.action == "remove":
        with safefs.open_dir(root, parts) as dir_fd:
            _still_expected(dir_fd, step, skill_dir)
            os.unlink(SKILL_FILE, dir_fd=dir_fd)
            os.fsync(dir_fd)
        with safefs.open_dir(root, parts[:-1]) as parent_fd, contextlib.suppress(OSError):
            # Only an empty directory goes; anything else the user put there stays.
            os.rmdir(step.name, dir_fd=parent_fd)
