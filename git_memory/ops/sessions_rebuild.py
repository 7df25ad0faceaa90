"""`git memory sessions rebuild`: recreate the session index from the transcripts."""

from __future__ import annotations

from filelock import FileLock

from git_memory.contracts.sessions import SessionsSyncRequest, SyncSummary
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.ops.sessions_sync import from_cli, render, render_verbose, run_sync, source_options
from git_memory.paths import ensure_private_dir
from git_memory.sessions import index


def sessions_rebuild(ctx: OpContext, request: SessionsSyncRequest) -> SyncSummary:
    """Delete the session index and index every transcript again (it is derived data)."""
    state_home = ctx.state_home
    ensure_private_dir(state_home)
    with FileLock(str(index.lock_path(state_home)), mode=0o600):
        index.remove_index(state_home)
    return run_sync(ctx, request, rebuilt=True)


OPERATION = Operation(
    spec=spec("sessions-rebuild"),
    request_model=SessionsSyncRequest,
    response_model=SyncSummary,
    handler=sessions_rebuild,
    cli_params=source_options(),
    from_cli=from_cli,
    render_text=render,
    render_text_verbose=render_verbose,
)
