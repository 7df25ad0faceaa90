"""`git memory verify [ID…]`: is approved memory still true of this worktree?"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.lifecycle import (
    FreshnessCounts,
    VerifiedMemory,
    VerifyReason,
    VerifyRequest,
    VerifyResponse,
)
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec


def verify(ctx: OpContext, request: VerifyRequest) -> VerifyResponse:
    """Check approved memory against the worktree and repository; changes nothing.

    Each approved entry is fresh (everything it relies on holds), stale (something is gone;
    the reasons say what) or unverifiable (nothing to check). Checked: cited paths exist in
    the worktree (untracked ones are noted), cited commits exist and are reachable from HEAD
    (not checked in a shallow clone), and what the commands named in inline code need: the
    make/just target, the `npm|pnpm|yarn|bun run` script in the nearest package.json, a
    script file, pyproject.toml for uv/poetry, Cargo.toml, go.mod, the compose service.
    Scenes and skills are checked for the commands they name. IDs (entry ids, `scene:NAME`,
    `skill:NAME`) narrow the check. Exits 1 when anything is stale.
    """
    from git_memory.verify.check import counts, entry_not_found, verify_memory

    checked = verify_memory(ctx.worktree, request.ids)
    missing = sorted(set(request.ids) - {item.id for item in checked})
    if missing:
        raise entry_not_found(missing)
    return VerifyResponse(
        entries=[
            VerifiedMemory(
                id=item.id,
                kind=item.kind,
                path=item.path,
                state=item.state,
                reasons=[VerifyReason(**vars(reason)) for reason in item.reasons],
                notes=list(item.notes),
            )
            for item in checked
        ],
        counts=FreshnessCounts(**counts(checked)),
    )


def render(response: VerifyResponse) -> str:
    """One line per stale or unverifiable memory with its reasons, then the counts."""
    lines = []
    for item in response.entries:
        if item.state != "fresh":
            why = "; ".join(r.message for r in item.reasons)
            lines.append(f"{item.path}: {item.state}: {why}")
    counts = response.counts
    lines.append(
        f"{counts.total} checked: {counts.fresh} fresh, {counts.stale} stale, "
        f"{counts.unverifiable} unverifiable"
    )
    if counts.stale:
        lines.append("stale memory stays out of assembled context; fix the code or the memory, "
                     "or retire it: git memory retire ID --reason TEXT (`git memory list --stale`"
                     " shows the ids)")  # fmt: skip
    return "\n".join(lines)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> dict[str, Any]:
    from git_memory.verify.check import expand_short_ids

    return {"ids": expand_short_ids(ctx.worktree, values.get("ids") or ())}


OPERATION = Operation(
    spec=spec("verify"),
    request_model=VerifyRequest,
    response_model=VerifyResponse,
    handler=verify,
    cli_params=[click.Argument(["ids"], nargs=-1, metavar="[ID]...")],
    from_cli=_from_cli,
    render_text=render,
    exit_code=lambda response: 1 if response.counts.stale else 0,
    mcp_annotations={"idempotentHint": True},
)
