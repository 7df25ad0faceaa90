"""Freshness for `git memory status` and `git memory doctor`."""

from __future__ import annotations

from typing import Any


def counts(ctx: Any) -> dict[str, int]:
    """Status contributor: approved memories by freshness (`git memory verify` lists them)."""
    from git_memory.verify.check import counts as tally
    from git_memory.verify.check import verify_memory

    return tally(verify_memory(ctx.worktree))


def doctor_check(ctx: Any) -> Any:
    """Doctor: stale memory is worth knowing (it stays out of assembled context)."""
    from git_memory.doctor.checks import Check

    found = counts(ctx)
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
