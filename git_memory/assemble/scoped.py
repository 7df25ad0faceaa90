"""Scoped blocks: one per directory that approved entries are confined to, in each agent's
file for that directory (`targets.scoped_target`), planned like the root block.

The files written are recorded privately (`<state home>/artifacts/context-blocks/
scoped-<provider>-<worktreeKey>.json`), so a directory that no longer has entries loses its
block on the next run: the block is taken out, and a file left with nothing but the header a
new file was given is removed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from git_memory import safefs
from git_memory.assemble.agent_files import read_agent_file
from git_memory.assemble.block import remove_block, splice_block
from git_memory.assemble.compose import RenderSettings, render
from git_memory.assemble.render import Provider, Rendered
from git_memory.assemble.snapshot import MemorySnapshot
from git_memory.assemble.targets import scoped_target
from git_memory.contracts.canonical import sha256_hex
from git_memory.errors import GitMemoryError
from git_memory.paths import read_private, write_private_atomic
from git_memory.verify.check import scope_not_a_directory

RECORD_FORMAT = "git-memory-scoped-blocks@v1"
ScopedAction = Literal["appended", "replaced", "unchanged", "remove", "update"]


@dataclass(frozen=True)
class ScopedPlan:
    """One scoped file: its bytes now and after (None: removed)."""

    scope: str
    path: str
    header: str
    current: bytes | None
    data: bytes | None
    action: ScopedAction
    rendered: Rendered | None  # None for a block taken out


def record_path(state_home: Path, provider: str, worktree_key: str) -> Path:
    """Where the scoped files written for `provider` in one worktree are recorded."""
    return state_home / "artifacts" / "context-blocks" / f"scoped-{provider}-{worktree_key}.json"


def load_record(path: Path) -> dict[str, str]:
    """Recorded scoped file → the header it was created with ({} when unreadable)."""
    try:
        document = json.loads(read_private(path))
    except (OSError, ValueError, GitMemoryError):
        return {}
    files = document.get("files") if isinstance(document, dict) else None
    if document.get("format") != RECORD_FORMAT or not isinstance(files, dict):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)}


def save_record(path: Path, plans: list[ScopedPlan]) -> None:
    """Record the scoped files that hold a block after this run."""
    files = {plan.path: plan.header for plan in plans if plan.action != "remove"}
    document = {"format": RECORD_FORMAT, "files": dict(sorted(files.items()))}
    write_private_atomic(path, json.dumps(document).encode("utf-8"))


def _retire(root: Path, path: str, header: str) -> ScopedPlan | None:
    current = read_agent_file(root, path)
    if current is None:
        return None
    left = remove_block(current)
    if left == current:
        return None
    gone = left.strip() in (b"", header.encode().strip())
    action: ScopedAction = "remove" if gone else "update"
    return ScopedPlan("", path, header, current, None if gone else left, action, None)


def plan_scoped(
    root: Path,
    provider: Provider,
    snapshot: MemorySnapshot,
    settings: RenderSettings,
    recorded: dict[str, str],
    *,
    save: bool,
    carried: bool = False,
) -> list[ScopedPlan]:
    """The scoped file of every directory with entries, and the recorded ones to retire.

    Each scoped rendering is cached beside the root one (`save`: record fresh renderings).
    `carried`: another agent's scoped files, which this agent reads too, carry these entries
    (`once.py`), so only the recorded files are retired."""
    plans: list[ScopedPlan] = []
    for scope in [] if carried else snapshot.scopes():
        if not scope_is_directory(root, scope):
            continue  # never created; `missing_scope_notes` says so (issue 42, S3)
        target = scoped_target(provider, scope)
        cached = settings.cache_path
        if cached is not None:
            # Named by a digest: a deep scope must not make the name too long (issue 42, S1).
            cached = cached.with_name(f"{cached.stem}.{sha256_hex(scope.encode())[:16]}.json")
        scoped = replace(settings, scope=scope, cache_path=cached, known="")
        rendered = render(snapshot, scoped, save=save)
        current = read_agent_file(root, target.path)
        base = target.header.encode() if current is None else current
        splice = splice_block(base, rendered.text)
        plans.append(
            ScopedPlan(
                scope, target.path, target.header, current, splice.data, splice.action, rendered
            )
        )
    planned = {plan.path for plan in plans}
    for path, header in sorted(recorded.items()):
        if path not in planned and (retired := _retire(root, path, header)) is not None:
            plans.append(retired)
    return plans


def scope_is_directory(root: Path, scope: str) -> bool:
    """Whether `scope` names a directory of the worktree (a symbolic link on the way is
    refused, as every write below it would be)."""
    try:
        with safefs.open_dir(root, safefs.split_relative(scope)):
            return True
    except FileNotFoundError:
        return False
    except GitMemoryError as error:
        if error.code != "GM_NOT_A_DIRECTORY":
            raise
        return False


def missing_scope_notes(root: Path, snapshot: MemorySnapshot) -> list[str]:
    """One note per directory that approved entries are scoped to and the worktree does not
    have: their blocks are left out and the directory is not created.

    Verify reports such an entry stale, so entries are loaded only when some are stale; the
    scopes of fresh entries are the snapshot's own (cached) list."""
    by_scope: dict[str, list[str]] = {scope: [] for scope in snapshot.scopes()}
    if snapshot.stale_ids:
        for entry in snapshot.approved():
            if entry.scope is not None and entry.id in snapshot.stale_ids:
                by_scope.setdefault(entry.scope, []).append(entry.id)
    notes = []
    for scope, ids in sorted(by_scope.items()):
        if not scope_is_directory(root, scope):
            named = f"{', '.join(ids)}: " if ids else f"entries scoped to {scope}/: "
            notes.append(f"{named}{scope_not_a_directory(scope)}; left out, not created")
    return notes


def write_worktree_file(root: Path, relpath: str, data: bytes | None) -> None:
    """Replace (no-follow, atomic; a new file gets 0644) or, with None, remove one file."""
    parts = safefs.split_relative(relpath)
    with safefs.open_dir(root, parts[:-1], create=data is not None) as dir_fd:
        if data is None:
            safefs.unlink_file_at(dir_fd, parts[-1])
        else:
            safefs.replace_file_at(dir_fd, parts[-1], data)
