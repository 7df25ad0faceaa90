"""Who approved a plan, and how.

The approval binds to the exact `planDigest`: given as `--approve`/`approve`, or given by a
human who saw the diff (terminal prompt, MCP elicitation). It is recorded in the
authorization log with `via`: `interactive`, `digest`, `elicitation` or `agent`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from git_memory.errors import GitMemoryError
from git_memory.promote.plan import PlannedFile, unified_diff
from git_memory.promote.writer import read_target
from git_memory.store import journal
from git_memory.store.db import Owner, StateDB


def _tty_confirm(summary: str, diff: str) -> bool:
    from git_memory import output

    return output.confirm_after("Apply this promotion plan?", diff, summary)


def decide(ctx: Any, request: Any, record: Any, plan: Any) -> str | None:
    """The approval channel, or None when the plan needs no new approval (already approved,
    applying or applied); raises when approval is missing, wrong or declined."""
    from git_memory.promote.apply import voided

    if record.status == "voided":
        raise voided(record)
    if request.approve is not None and request.approve != record.plan_digest:
        raise GitMemoryError(
            "GM_APPROVAL_MISMATCH",
            f"--approve does not match the digest of plan {record.plan_id!r}",
            hint="approve exactly the planDigest that `git memory prepare` printed",
        )
    if record.status != "generated":
        return None
    mcp = ctx.extras.get("front_end") == "mcp"
    if request.approve is not None:
        return "agent" if mcp else "digest"
    confirm, via = ctx.confirm, ctx.via
    if confirm is None and ctx.interactive and not mcp:
        confirm, via = _tty_confirm, "interactive"
    if confirm is None:
        raise GitMemoryError(
            "GM_APPROVAL_REQUIRED",
            f"plan {record.plan_id!r} needs approval",
            hint=f"pass --approve {record.plan_digest} after reading the diff",
        )
    summary = (
        f"Promote plan {record.plan_id}: {len(plan.per_file)} file(s) "
        f"into {plan.owner.memory_root}/"
    )
    if not confirm(summary, fresh_diff(ctx.worktree.root, record, plan)):
        raise GitMemoryError("GM_APPROVAL_DECLINED", "the promotion plan was not approved")
    return str(via)


def fresh_diff(root: Path, record: Any, plan: Any) -> str:
    """The diff recomputed from the stored bytes and the files as they are now, so what the
    human reads is exactly what would be written (the stored diff is not digest-bound)."""
    contents = {f.target_path: f.content for f in record.files}
    files = [
        PlannedFile(
            item.target_path,
            item.target_blob_hash,
            contents[item.target_path],
            read_target(root, item.target_path),
            operation=item.operation,
        )
        for item in plan.per_file
    ]
    return unified_diff(files)


def approve(db: StateDB, owner: Owner, plan_id: str, via: str) -> None:
    """generated → approved, with the authorization log entry, in one transaction."""
    with db.write():
        record = journal.require_plan(db, plan_id)
        if not journal.transition(db, plan_id, expected=("generated",), status="approved"):
            return  # another process approved it meanwhile; apply decides what happens next
        journal.record_authorization(
            db, owner, plan_digest=record.plan_digest, via=via, detail={"planId": plan_id}
        )
