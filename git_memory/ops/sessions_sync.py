"""`git memory sessions sync [--source DIR]`: bring the session index up to date."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from git_memory.contracts.sessions import DiagnosticExample, SessionsSyncRequest, SyncSummary
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.sessions.providers.base import enabled
from git_memory.sessions.sync import sync

if TYPE_CHECKING:
    from git_memory.sessions.sync import SessionSyncResult


def summary_of(result: SessionSyncResult, *, rebuilt: bool = False) -> SyncSummary:
    """The contract form of a `sessions.sync.SessionSyncResult`."""
    return SyncSummary(
        files_seen=result.files_seen,
        new=result.new,
        resumed=result.resumed,
        reread=result.reread,
        unchanged=result.unchanged,
        removed=result.removed,
        excluded=result.excluded,
        turns_added=result.turns_added,
        diagnostics=result.diagnostics,
        examples=[DiagnosticExample(**example) for example in result.examples],
        rebuilt=rebuilt,
    )


def sessions_sync(ctx: OpContext, request: SessionsSyncRequest) -> SyncSummary:
    """Index coding agents' transcripts incrementally into the private session index.

    Reads Claude Code, Codex, Gemini CLI, Qwen Code, OpenCode, Copilot CLI, Cursor and
    Antigravity history from each agent's own home (CLAUDE_CONFIG_DIR, CODEX_HOME,
    GEMINI_CLI_HOME, QWEN_RUNTIME_DIR, XDG_DATA_HOME, COPILOT_HOME, CURSOR_CONFIG_DIR,
    ANTIGRAVITY_HOME), plus any --source folder; `memory.sources` (a comma list) limits the
    agents. Malformed lines and refused files become diagnostics; the sync still succeeds.
    """
    return run_sync(ctx, request)


def run_sync(ctx: OpContext, request: SessionsSyncRequest, *, rebuilt: bool = False) -> SyncSummary:
    """Sync the index from the default transcript folders plus the request's sources."""
    result = sync(
        ctx.state_home,
        [Path(source) for source in request.sources],
        providers=enabled(ctx.worktree),
        show_progress=ctx.output_format == "text",
    )
    return summary_of(result, rebuilt=rebuilt)


# The counts of a sync, in the order and the words its summary gives them.
COUNTS: tuple[tuple[str, str], ...] = (
    ("new", "new"),
    ("resumed", "resumed"),
    ("reread", "re-read"),
    ("unchanged", "unchanged"),
    ("removed", "removed"),
    ("excluded", "excluded (subagents, duplicates)"),
)


def render(response: SyncSummary) -> str:
    """What a sync did: the files it read and the turns it added; a zero count is left out
    (`render_verbose` prints every count)."""
    done = [f"{getattr(response, key)} {words}" for key, words in COUNTS if getattr(response, key)]
    head = f"{_verb(response)} {_plural(response.files_seen, 'file')}"
    if done:
        head += f": {', '.join(done)}"
    turns = _plural(response.turns_added, "turn") + " added" if response.turns_added else ""
    return "\n".join([f"{head}; {turns or 'no new turns'}", *_diagnostics(response)])


def render_verbose(response: SyncSummary) -> str:
    """Every count of a sync, zeros too, and its diagnostics."""
    counts = ", ".join(f"{getattr(response, key)} {words}" for key, words in COUNTS)
    lines = [
        f"{_verb(response)}: {response.files_seen} files seen, {counts}",
        f"turns added: {response.turns_added}",
    ]
    return "\n".join(lines + _diagnostics(response))


def _verb(response: SyncSummary) -> str:
    return "rebuilt" if response.rebuilt else "synced"


def _plural(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _diagnostics(response: SyncSummary) -> list[str]:
    if not response.diagnostics:
        return []
    lines = [f"diagnostics: {response.diagnostics}"]
    return lines + [f"  {d.file}@{d.offset}: {d.code}: {d.message}" for d in response.examples]


def from_cli(ctx: OpContext, values: Mapping[str, Any]) -> SessionsSyncRequest:
    """The request of `sessions sync` and `sessions rebuild`: the `--source` folders."""
    return SessionsSyncRequest(sources=list(values.get("sources") or ()))


def source_options() -> list[click.Parameter]:
    """The `--source DIR` option both commands take (a fresh object for each command)."""
    return [
        click.Option(
            ["--source", "sources"],
            multiple=True,
            type=click.Path(file_okay=False),
            help="Also import transcripts from DIR (repeatable).",
        )
    ]


OPERATION = Operation(
    spec=spec("sessions-sync"),
    request_model=SessionsSyncRequest,
    response_model=SyncSummary,
    handler=sessions_sync,
    cli_params=source_options(),
    from_cli=from_cli,
    render_text=render,
    render_text_verbose=render_verbose,
)
