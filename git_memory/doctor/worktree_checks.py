"""Doctor checks that need a worktree: memory root, lint, index, hooks, indexed sessions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from git_memory.doctor.checks import Check
from git_memory.errors import GitMemoryError

if TYPE_CHECKING:
    from git_memory.ops.base import OpContext


def check_memory_root(ctx: OpContext) -> list[Check]:
    """The memory root exists, lints clean and its index.json is current."""
    from git_memory.ops.base import load_operation

    worktree = ctx.worktree
    if not worktree.memory_dir.is_dir():
        return [
            Check("memory root", "fail", f"{worktree.memory_root}/ is missing", "git memory init")
        ]
    try:
        report = load_operation("lint").invoke(ctx, {"paths": []})
    except GitMemoryError as exc:
        return [Check("memory root", "fail", exc.message, exc.hint)]
    codes = [f.code for item in report.files for f in item.findings]
    checks = [Check("memory root", "ok", f"{worktree.memory_root}/ present")]
    blocking = [f for item in report.files for f in item.findings if f.severity == "block"]
    if blocking:
        checks.append(
            Check("lint", "fail", f"{len(blocking)} blocking finding(s)", "git memory lint")
        )
    else:
        checks.append(Check("lint", "ok", f"clean ({len(codes)} warning(s))"))
    if "GM_INDEX_STALE" in codes:
        checks.append(Check("index.json", "fail", "index.json is stale", "git memory reindex"))
    else:
        checks.append(Check("index.json", "ok", "current"))
    return checks


def check_hooks(ctx: OpContext) -> Check:
    """The pre-commit lint hook and the index merge driver."""
    from git_memory.ops.base import load_operation

    state = load_operation("hooks-status").invoke(ctx, {})
    pre_commit = next((h for h in state.hooks if h.name == "pre-commit"), None)
    where = f" (git runs hooks from {state.hooks_dir})"
    if pre_commit is None or pre_commit.state != "installed" or not state.merge_driver:
        current = pre_commit.state if pre_commit else "absent"
        return Check(
            "hooks",
            "fail",
            f"pre-commit hook {current}, merge driver "
            f"{'registered' if state.merge_driver else 'missing'}{where}",
            "git memory hooks install",
        )
    return Check("hooks", "ok", f"pre-commit lint hook and index merge driver installed{where}")


def check_sessions(ctx: OpContext) -> Check:
    """How many indexed sessions belong to this worktree."""
    from git_memory.sessions.status import counts

    found = counts(ctx.worktree)
    if not found["indexed"]:
        if not _any_transcripts():
            return Check(
                "sessions",
                "warn",
                "nothing to index: no agent transcripts were found (see the transcripts line)",
            )
        return Check("sessions", "fail", "no transcripts indexed yet", "git memory sessions sync")
    if not found["worktree"]:
        return Check(
            "sessions",
            "warn",
            f"{found['indexed']} indexed, none recorded in this worktree",
            "sessions count when the agent ran in this worktree or a directory inside it",
        )
    return Check(
        "sessions", "ok", f"{found['indexed']} indexed, {found['worktree']} of this worktree"
    )


def _any_transcripts() -> bool:
    from git_memory.sessions.discover import default_roots, discover

    roots = [(provider, root) for provider, root in default_roots() if root.is_dir()]
    return any(found.excluded is None for found in discover(roots))


def check_freshness(ctx: OpContext) -> Check:
    """Doctor: stale memory is worth knowing (it stays out of assembled context)."""
    from git_memory.verify.check import counts as tally
    from git_memory.verify.check import verify_memory

    # Checked afresh: doctor must work when the state home is what is broken.
    found = tally(verify_memory(ctx.worktree))
    if found["stale"]:
        return Check(
            "memory freshness",
            "warn",
            f"{found['stale']} of {found['total']} approved memories are stale and left out of "
            "assembled context",
            "git memory verify (then fix the code or the memory, or git memory retire)",
        )
    return Check(
        "memory freshness", "ok", f"{found['fresh']} fresh, {found['unverifiable']} unverifiable"
    )
