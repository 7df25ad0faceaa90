"""Doctor checks that need a worktree: memory root, lint, index, hooks, indexed sessions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from git_memory.agent_memory.codex_check import codex_layout
from git_memory.agent_memory.status import found_stores
from git_memory.agent_memory.stores import STORES, enabled_stores
from git_memory.assemble.freshness import freshness_check
from git_memory.assemble.in_step import UPDATE_COMMAND, assembled_files, behind_note, files_behind
from git_memory.assemble.snapshot import read_snapshot
from git_memory.doctor.checks import DoctorCheck
from git_memory.doctor.checks import _shown as shown_path
from git_memory.errors import GitMemoryError
from git_memory.ops.base import load_operation
from git_memory.sessions.discover import default_roots, discover
from git_memory.sessions.status import counts
from git_memory.store.session import open_workspace
from git_memory.verify.check import counts as tally
from git_memory.verify.check import verify_memory

if TYPE_CHECKING:
    from git_memory.ops.base import OpContext


def check_memory_root(ctx: OpContext) -> list[DoctorCheck]:
    """The memory root exists, lints clean and its index.json is current."""
    worktree = ctx.worktree
    if not worktree.memory_dir.is_dir():
        return [
            DoctorCheck(
                name="memory root",
                status="fail",
                detail=f"{worktree.memory_root}/ is missing",
                hint="git memory init",
            )
        ]
    try:
        report = load_operation("lint").invoke(ctx, {"paths": []})
    except GitMemoryError as exc:
        return [DoctorCheck(name="memory root", status="fail", detail=exc.message, hint=exc.hint)]
    codes = [f.code for item in report.files for f in item.findings]
    checks = [
        DoctorCheck(name="memory root", status="ok", detail=f"{worktree.memory_root}/ present")
    ]
    blocking = [f for item in report.files for f in item.findings if f.severity == "block"]
    if blocking:
        checks.append(
            DoctorCheck(
                name="lint",
                status="fail",
                detail=f"{len(blocking)} blocking finding(s)",
                hint="git memory lint",
            )
        )
    else:
        checks.append(
            DoctorCheck(name="lint", status="ok", detail=f"clean ({len(codes)} warning(s))")
        )
    if "GM_INDEX_STALE" in codes:
        checks.append(
            DoctorCheck(
                name="index.json",
                status="fail",
                detail="index.json is stale",
                hint="git memory reindex",
            )
        )
    else:
        checks.append(DoctorCheck(name="index.json", status="ok", detail="current"))
    return checks


def check_hooks(ctx: OpContext) -> DoctorCheck:
    """The pre-commit lint hook and the index merge driver."""
    state = load_operation("hooks-status").invoke(ctx, {})
    pre_commit = next((h for h in state.hooks if h.name == "pre-commit"), None)
    where = f" (git runs hooks from {state.hooks_dir})"
    if pre_commit is None or pre_commit.state != "installed" or not state.merge_driver:
        current = pre_commit.state if pre_commit else "absent"
        return DoctorCheck(
            name="hooks",
            status="fail",
            detail=f"pre-commit hook {current}, merge driver "
            f"{'registered' if state.merge_driver else 'missing'}{where}",
            hint="git memory hooks install",
        )
    return DoctorCheck(
        name="hooks",
        status="ok",
        detail=f"pre-commit lint hook and index merge driver installed{where}",
    )


def check_sessions(ctx: OpContext) -> DoctorCheck:
    """How many indexed sessions belong to this worktree."""
    found = counts(ctx.worktree)
    if not found["indexed"]:
        if not _any_transcripts():
            return DoctorCheck(
                name="sessions",
                status="warn",
                detail="nothing to index: no agent transcripts were found "
                "(see the transcripts line)",
            )
        return DoctorCheck(
            name="sessions",
            status="fail",
            detail="no transcripts indexed yet",
            hint="git memory sessions sync",
        )
    if not found["worktree"]:
        return DoctorCheck(
            name="sessions",
            status="warn",
            detail=f"{found['indexed']} indexed, none recorded in this worktree",
            hint="sessions count when the agent ran in this worktree or a directory inside it",
        )
    return DoctorCheck(
        name="sessions",
        status="ok",
        detail=f"{found['indexed']} indexed, {found['worktree']} of this worktree",
    )


def _any_transcripts() -> bool:

    roots = [(provider, root) for provider, root in default_roots() if root.is_dir()]
    return any(found.excluded is None for found in discover(roots))


def check_freshness(ctx: OpContext) -> DoctorCheck:
    """Doctor: stale memory is worth knowing (it stays out of assembled context)."""
    # Checked afresh: doctor must work when the state home is what is broken.
    found = tally(verify_memory(ctx.worktree))
    if found["stale"]:
        return DoctorCheck(
            name="memory freshness",
            status="warn",
            detail=f"{found['stale']} of {found['total']} approved memories are stale and left "
            "out of assembled context",
            hint="git memory verify (then fix the code or the memory, or git memory retire)",
        )
    return DoctorCheck(
        name="memory freshness",
        status="ok",
        detail=f"{found['fresh']} fresh, {found['unverifiable']} unverifiable",
    )


def check_agent_memory(ctx: OpContext) -> DoctorCheck:
    """Doctor: the agents' own memory stores found for this worktree (docs/agent-memory.md)."""
    worktree = ctx.worktree
    found = found_stores(worktree)
    on = {spec.name for spec in enabled_stores(worktree.config_value("memory.sources"))}
    off = [spec.name for spec in STORES if spec.name not in on]
    suffix = f"; off by memory.sources: {', '.join(off)}" if off else ""
    listed = "; ".join(
        f"{store.spec.name}: {len(store.files)} file(s) in {shown_path(store.root)}"
        for store in found
    )
    return DoctorCheck(
        name="agent memory",
        status="ok",
        detail=(listed or "no agent memory store found for this worktree") + suffix,
        hint="git memory harvest offers their items for review" if found else None,
    )


def check_agent_files(ctx: OpContext) -> DoctorCheck:
    """Doctor: whether the agents' files assemble wrote are in step with approved memory
    (docs/guide-context.md, "In step")."""
    worktree = ctx.worktree
    if not worktree.memory_dir.is_dir():
        return DoctorCheck(name="agent files", status="ok", detail="no memory root yet")
    files = assembled_files(worktree)
    if not files:
        detail = f"no agent's file holds the memory block yet ({UPDATE_COMMAND} writes them)"
        return DoctorCheck(name="agent files", status="ok", detail=detail)
    with open_workspace(worktree) as workspace:
        behind = files_behind(worktree, read_snapshot(workspace, freshness_check()))
    if behind:
        return DoctorCheck(
            name="agent files", status="warn", detail=behind_note(behind), hint=UPDATE_COMMAND
        )
    return DoctorCheck(
        name="agent files", status="ok", detail=f"{', '.join(files)} in step with approved memory"
    )


# Unknown entries doctor names one by one; past this many it says how many more.
MAX_NAMED = 10


def check_codex_memories(ctx: OpContext) -> list[DoctorCheck]:
    """Doctor: whether Codex's memories folder holds only what Codex documents; an entry this
    reader does not know is named, and harvest reads nothing from it (docs/agent-memory.md)."""
    worktree = ctx.worktree
    on = {spec.name for spec in enabled_stores(worktree.config_value("memory.sources"))}
    layout = codex_layout(worktree) if "codex-memories" in on else None
    if layout is None:
        return []
    where = shown_path(layout.folder)
    if layout.unknown:
        named = layout.unknown[:MAX_NAMED]
        more = len(layout.unknown) - len(named)
        return [
            DoctorCheck(
                name="codex memories",
                status="warn",
                detail=f"{where}: not a layout this reader knows, so harvest reads nothing from: "
                + ", ".join(named)
                + (f" and {more} more" if more else ""),
                hint="docs/agent-memory.md lists what Codex writes there and what is read",
            )
        ]
    buckets = ", ".join(layout.buckets)
    return [
        DoctorCheck(
            name="codex memories",
            status="ok",
            detail=f"{where}: the layout Codex documents"
            + (f"; legacy folder(s) of this repository: {buckets}" if buckets else ""),
        )
    ]
