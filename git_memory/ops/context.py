"""`git memory context [QUERY] [--budget BYTES]`: print the memory block for a session start."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.assemble import (
    MAX_BUDGET,
    MIN_BUDGET,
    ContextRequest,
    ContextResponse,
)
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec


def context(ctx: OpContext, request: ContextRequest) -> ContextResponse:
    """Print approved memory as an agent should see it at a session start: the block assemble
    writes (entries grouped, doctrine, scenes, skills), without marker lines, within
    memory.assembleBudget or --budget bytes. With a QUERY, matching entries come first.
    Writes no worktree file (contrib/claude-code/ has the SessionStart hook).
    """
    from git_memory.assemble.cache import cache_path
    from git_memory.assemble.compose import RenderSettings, render
    from git_memory.assemble.config import assemble_budget
    from git_memory.assemble.freshness import freshness_for
    from git_memory.assemble.snapshot import open_snapshot
    from git_memory.ops.assemble import block_report, require_memory_root

    worktree = ctx.worktree
    require_memory_root(worktree)
    budget = request.budget or assemble_budget(worktree)
    query = (request.query or "").strip() or None
    key = worktree.binding().worktree_key
    cached = None if query else cache_path(worktree.state_home, f"context-{request.provider}", key)
    settings = RenderSettings(
        "context", request.provider, worktree.memory_root, budget, query, cached
    )
    with open_snapshot(worktree, freshness_for(worktree)) as snapshot:
        rendered = render(snapshot, settings, save=True)
        complete = snapshot.coverage == "complete"
        skipped = list(snapshot.files.skipped)
    notes = (
        skipped if complete else [*skipped, "entry files changed while they were read; run again"]
    )
    return ContextResponse(
        query=query, text=rendered.text, block=block_report(rendered, budget), notes=notes
    )


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> ContextRequest:
    query = " ".join(values["query"]) or None
    return ContextRequest(query=query, budget=values["budget"], provider=values["provider"])


def render_text(response: ContextResponse) -> str:
    """The rendered memory, exactly."""
    return response.text


OPERATION = Operation(
    spec=spec("context"),
    request_model=ContextRequest,
    response_model=ContextResponse,
    handler=context,
    cli_params=[
        click.Argument(["query"], nargs=-1, metavar="[QUERY]"),
        click.Option(
            ["--budget"],
            type=click.IntRange(MIN_BUDGET, MAX_BUDGET),
            default=None,
            metavar="BYTES",
            help="Most bytes to print (default: memory.assembleBudget, 8000).",
        ),
        click.Option(
            ["--provider"],
            type=click.Choice(["claude", "codex"]),
            default="claude",
            show_default=True,
            help="Whose skill directory the skill index points to.",
        ),
    ],
    from_cli=_from_cli,
    render_text=render_text,
)
