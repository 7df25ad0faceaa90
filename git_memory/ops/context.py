"""`git memory context [QUERY] [--budget BYTES]`: print the memory block for a session start."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from git_memory.assemble.cache import cache_path
from git_memory.assemble.compose import RenderSettings, render
from git_memory.assemble.config import assemble_budget
from git_memory.assemble.freshness import freshness_check
from git_memory.assemble.in_step import behind_note, provider_behind
from git_memory.assemble.known import README, known_text
from git_memory.assemble.render import NEW_FILE_HEADERS, TARGET_FILES
from git_memory.assemble.scope import contains
from git_memory.assemble.snapshot import read_snapshot
from git_memory.contracts.assemble import (
    AGENTS,
    MAX_BUDGET,
    MIN_BUDGET,
    ContextRequest,
    ContextResponse,
    ScopedBlock,
)
from git_memory.errors import UsageError
from git_memory.ops.assemble import block_report, require_memory_root
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.recorded_answers import answer_before, record_answer_after
from git_memory.ops.registry import spec
from git_memory.store.session import open_workspace
from git_memory.verify.recorded import consulted_paths

if TYPE_CHECKING:
    from git_memory.assemble.compose import RenderSettings
    from git_memory.assemble.render import Rendered
    from git_memory.assemble.snapshot import MemorySnapshot


def context(ctx: OpContext, request: ContextRequest) -> ContextResponse:
    """Print approved memory as an agent should see it at a session start: the block assemble
    writes (entries grouped, doctrine, scenes, skills), without marker lines, within
    memory.assembleBudget or --budget bytes. With a QUERY, matching entries come first. With
    --path P, the blocks of the directories containing P follow (entries scoped to them).
    Writes no worktree file (the SessionStart hook that runs it is
    contrib/claude-code/session-start-settings.json, installed with the package as
    git_memory/_contrib/claude-code/).
    """
    worktree = ctx.worktree
    require_memory_root(worktree)
    budget = request.budget or assemble_budget(worktree)
    query = (request.query or "").strip() or None
    key = worktree.binding().worktree_key
    cached = None if query else cache_path(worktree.state_home, f"context-{request.provider}", key)
    header = NEW_FILE_HEADERS.get(request.provider, "")
    known = known_text(worktree.root, TARGET_FILES[request.provider], header)
    settings = RenderSettings(
        "context", request.provider, worktree.memory_root, budget, query, cached, known=known
    )
    where = None if request.path is None else worktree_relative(worktree.root, request.path)
    # The default form (what a session-start hook runs) is recorded for the console script's
    # fast path: keyed on what this answer reads, taken before anything is read.
    name = f"context-{request.provider}"
    default_form = not (query or request.budget or where is not None)
    before = answer_before(worktree, name) if default_form else None
    with open_workspace(worktree) as workspace:
        snapshot = read_snapshot(workspace, freshness_check())
        rendered = render(snapshot, settings, save=True)
        scoped = [] if where is None else _scoped(snapshot, settings, where)
        complete = snapshot.coverage == "complete"
        skipped = list(snapshot.files.skipped)
        behind = provider_behind(worktree, snapshot, request.provider)
    notes = (
        skipped if complete else [*skipped, "entry files changed while they were read; run again"]
    )
    # The agent reads its file too: say when that file is behind what this prints.
    notes += [behind_note(behind)] if behind else []
    text = "\n\n".join([rendered.text, *(item.text for _, item in scoped)])
    watched = consulted_paths(worktree)
    # A recorded answer prints the text alone: one with notes (a skipped skill) is not kept.
    if complete and not notes and watched is not None:
        # What the block leaves out depends on the agent's own file and the README too.
        watched = sorted({*watched, TARGET_FILES[request.provider], README})
        record_answer_after(worktree, before, rendered.text, watched)
    return ContextResponse(
        query=query,
        text=text,
        block=block_report(rendered, budget),
        notes=notes,
        scopes=[
            ScopedBlock(
                path=scope, scope=scope, action="unchanged", shown=item.shown, bytes=item.bytes
            )
            for scope, item in scoped
        ],
    )


def worktree_relative(root: Path, path: str) -> str:
    """`path` (absolute, or relative to the worktree root) as a worktree-relative POSIX path;
    a path outside the worktree is a usage error."""
    absolute = os.path.normpath(os.path.join(root, path))
    relative = os.path.relpath(absolute, root).replace(os.sep, "/")
    if relative == ".." or relative.startswith("../"):
        raise UsageError(
            "GM_USAGE",
            f"--path {path!r} is outside this worktree",
            hint="give a path inside the worktree, relative to its root",
        )
    return "" if relative == "." else relative


def _scoped(
    snapshot: MemorySnapshot, settings: RenderSettings, where: str
) -> list[tuple[str, Rendered]]:
    """The context blocks of the directories that contain `where`, outermost first."""
    out = []
    for scope in snapshot.scopes():
        if contains(scope, where):
            narrowed = replace(settings, scope=scope, cache_path=None, query=None, known="")
            out.append((scope, render(snapshot, narrowed, save=False)))
    return out


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> ContextRequest:
    query = " ".join(values["query"]) or None
    return ContextRequest(
        query=query, budget=values["budget"], provider=values["provider"], path=values["path"]
    )


def render_text(response: ContextResponse) -> str:
    """The rendered memory, exactly, then any note (`note: …`)."""
    return "\n".join([response.text, *(f"note: {note}" for note in response.notes)])


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
            type=click.Choice(AGENTS),
            default="claude",
            show_default=True,
            help="Whose skill directory the skill index points to (the memory root's "
            "skills for an agent without one).",
        ),
        click.Option(
            ["--path"],
            default=None,
            metavar="P",
            help="Also print the memory scoped to the directories containing P (relative to "
            "the worktree root, or absolute): what an agent working at P should see.",
        ),
    ],
    from_cli=_from_cli,
    render_text=render_text,
)
