"""`git memory sessions rebuild`: recreate the session index from the transcripts."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from git_memory.contracts.sessions import SessionsSyncRequest, SyncSummary
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.ops.sessions_sync import render, summary_of


def sessions_rebuild(ctx: OpContext, request: SessionsSyncRequest) -> SyncSummary:
    """Delete the session index and index every transcript again (it is derived data)."""
    from filelock import FileLock

    from git_memory.sessions import index
    from git_memory.sessions.sync import sync

    state_home = ctx.state_home
    sources = [Path(source) for source in request.sources]
    from git_memory.paths import ensure_private_dir

    ensure_private_dir(state_home)
    with FileLock(str(index.lock_path(state_home)), mode=0o600):
        index.remove_index(state_home)
    result = sync(state_home, sources, show_progress=ctx.extras.get("output_format") == "text")
    return summary_of(result, rebuilt=True)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> SessionsSyncRequest:
    return SessionsSyncRequest(sources=list(values.get("sources") or ()))


OPERATION = Operation(
    spec=spec("sessions-rebuild"),
    request_model=SessionsSyncRequest,
    response_model=SyncSummary,
    handler=sessions_rebuild,
    cli_params=[
        click.Option(
            ["--source", "sources"],
            multiple=True,
            type=click.Path(file_okay=False),
            help="Also import transcripts from DIR (repeatable).",
        )
    ],
    from_cli=_from_cli,
    render_text=render,
)
