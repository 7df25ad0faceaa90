"""`git memory hooks status`: what is installed where."""

from __future__ import annotations

from git_memory.contracts.memory_files import HooksRequest, HooksResponse
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.hooks_install import build_response, render
from git_memory.ops.registry import spec
from git_memory.repo import hooks


def hooks_status(ctx: OpContext, request: HooksRequest) -> HooksResponse:
    """Show the hooks directory git will run hooks from, whether each hook is our current shim, an
    outdated one, a foreign hook or absent, and whether the merge driver is registered."""
    worktree = ctx.worktree
    directory = hooks.hooks_dir(worktree)
    states = [hooks.directory_state(worktree, directory, name) for name in hooks.HOOK_NAMES]
    return build_response(worktree, directory, states)


OPERATION = Operation(
    spec=spec("hooks-status"),
    request_model=HooksRequest,
    response_model=HooksResponse,
    handler=hooks_status,
    render_text=render,
    accepts_request_file=False,
)
