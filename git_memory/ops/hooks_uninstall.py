"""`git memory hooks uninstall`: remove the shims and the merge driver."""

from __future__ import annotations

from git_memory.contracts.memory_files import HooksRequest, HooksResponse
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.hooks_install import build_response, render
from git_memory.ops.registry import spec
from git_memory.repo import hooks


def hooks_uninstall(ctx: OpContext, request: HooksRequest) -> HooksResponse:
    """Remove git-memory's hook shims, restoring a chained `<hook>.legacy`, and the merge
    driver (.gitattributes line and git config). Foreign hooks are left alone."""
    worktree = ctx.worktree
    directory = hooks.hooks_dir(worktree)
    try:
        with hooks.open_hooks_dir(worktree, directory, create=False) as dir_fd:
            states = [hooks.uninstall_hook(dir_fd, name) for name in hooks.HOOK_NAMES]
    except FileNotFoundError:
        states = [hooks.HookInfo(name, "absent", False, "left alone") for name in hooks.HOOK_NAMES]
    hooks.unregister_driver(worktree)
    return build_response(worktree, directory, states)


OPERATION = Operation(
    spec=spec("hooks-uninstall"),
    request_model=HooksRequest,
    response_model=HooksResponse,
    handler=hooks_uninstall,
    render_text=render,
    accepts_request_file=False,
)
