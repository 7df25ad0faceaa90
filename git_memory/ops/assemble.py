"""`git memory assemble --provider claude|codex [--dry-run]`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.assemble import AssembledFile, AssembleRequest, AssembleResponse
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec


def assemble(ctx: OpContext, request: AssembleRequest) -> AssembleResponse:
    """Write approved memory into the agent's context: one generated block in CLAUDE.md
    (claude) or AGENTS.md (codex) at the worktree root — doctrine, the scene index (hottest
    first, at most 15) and the skill index — and each skill projected to
    .claude/skills/<name>/SKILL.md or .codex/skills/<name>/SKILL.md.

    Text outside the block is never touched; files are written only when they change, so
    running it again changes nothing. A projection edited by someone else is a conflict
    (nothing is written); a projection of a removed skill is deleted only while it is still
    exactly what assemble wrote. With --dry-run, prints the diff and writes nothing.
    """
    from git_memory.assemble.projection import manifest_path
    from git_memory.assemble.run import AssembleInputs
    from git_memory.assemble.run import assemble as run_assemble

    worktree = ctx.worktree
    if not worktree.memory_dir.is_dir():
        from git_memory.errors import GitMemoryError

        raise GitMemoryError(
            "GM_NO_MEMORY_ROOT",
            f"there is no memory root {worktree.memory_root}/ in this worktree to assemble from",
            hint="git memory init (or pull the branch that has the team's memory)",
        )
    inputs = AssembleInputs(
        root=worktree.root,
        memory_root=worktree.memory_root,
        manifest_path=manifest_path(
            worktree.state_home, request.provider, worktree.binding().worktreeKey
        ),
    )
    result = run_assemble(inputs, request.provider, dry_run=request.dryRun)
    if not request.dryRun:
        _resync_approved(ctx)
    return AssembleResponse(
        provider=result.provider,
        dryRun=result.dry_run,
        changed=result.changed,
        target=AssembledFile(path=result.target, action=result.target_action),
        skills=[AssembledFile(path=p.path, action=p.action) for p in result.projections],
        diff=result.diff,
        notes=result.notes,
    )


def _resync_approved(ctx: OpContext) -> None:
    """Bring the approved projection (search and recall) up to date with the worktree."""
    from git_memory.store.worktree import open_worktree_state

    open_worktree_state(ctx.worktree, sync=True).close()


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> AssembleRequest:
    if values.get("provider") is None:
        from git_memory.errors import UsageError

        raise UsageError(
            "GM_USAGE", "--provider is required", hint="git memory assemble --provider claude"
        )
    return AssembleRequest(provider=values["provider"], dryRun=values["dry_run"])


_VERBS = {
    "appended": "block appended",
    "replaced": "block replaced",
    "unchanged": "unchanged",
    "create": "created",
    "update": "updated",
    "remove": "removed (skill no longer exists)",
    "kept-edited": "kept (edited by someone; its skill no longer exists)",
    "forget": "already gone",
}


def render(response: AssembleResponse) -> str:
    """The diff for --dry-run; otherwise one line per file."""
    if response.dryRun:
        return response.diff.rstrip("\n") or "nothing to change"
    lines = [f"{response.target.path}: {_VERBS[response.target.action]}"]
    lines += [
        f"{item.path}: {_VERBS[item.action]}"
        for item in response.skills
        if item.action not in ("unchanged", "forget")
    ]
    lines += [f"note: {note}" for note in response.notes]
    return "\n".join(lines)


OPERATION = Operation(
    spec=spec("assemble"),
    request_model=AssembleRequest,
    response_model=AssembleResponse,
    handler=assemble,
    cli_params=[
        click.Option(
            ["--provider"],
            type=click.Choice(["claude", "codex"]),
            default=None,
            help="Whose files: claude (CLAUDE.md, .claude/skills) or codex (AGENTS.md, "
            ".codex/skills). Required.",
        ),
        click.Option(["--dry-run"], is_flag=True, help="Print the diff; write nothing."),
    ],
    from_cli=_from_cli,
    render_text=render,
    mcp_annotations={"idempotentHint": True},
)
