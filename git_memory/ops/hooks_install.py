"""`git memory hooks install [--force]`: the pre-commit lint hook and the merge driver."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.memory_files import HooksRequest, HooksResponse, HookState
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec


def hooks_install(ctx: OpContext, request: HooksRequest) -> HooksResponse:
    """Install the pre-commit hook (runs `git memory lint --staged`) and the merge driver.

    The hook goes into the hooks directory git itself uses (`git rev-parse --git-path hooks`:
    core.hooksPath from any config layer, `git -c` included); a tracked
    hooks directory is refused without --force. A hook already there is kept as
    `pre-commit.legacy` and runs first; our own shim is upgraded in place. The index.json
    merge driver is registered in .gitattributes and the repository's git config.
    """
    from git_memory.repo import hooks

    worktree = ctx.worktree
    directory = hooks.hooks_dir(worktree)
    hooks.check_untracked(worktree, directory, request.force)
    with hooks.open_hooks_dir(worktree, directory, create=True) as dir_fd:
        states = [hooks.install_hook(dir_fd, name) for name in hooks.HOOK_NAMES]
    hooks.register_driver(worktree)
    return build_response(worktree, directory, states)


def build_response(worktree: Any, directory: Any, states: list[Any]) -> HooksResponse:
    """The hooks document from repo-level hook states."""
    from git_memory.repo import hooks

    return HooksResponse(
        hooksDir=hooks.shown_hooks_dir(worktree, directory),
        hooks=[
            HookState(name=s.name, state=s.state, legacy=s.legacy, action=s.action) for s in states
        ],
        mergeDriver=hooks.driver_registered(worktree),
    )


def render(response: HooksResponse) -> str:
    """One line per hook and one for the merge driver."""
    lines = [f"hooks directory: {response.hooksDir}"]
    for hook in response.hooks:
        legacy = " (chains pre-existing hook as .legacy)" if hook.legacy else ""
        action = f" [{hook.action}]" if hook.action else ""
        lines.append(f"  {hook.name}: {hook.state}{legacy}{action}")
    lines.append(f"  index.json merge driver: {'registered' if response.mergeDriver else 'absent'}")
    return "\n".join(lines)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> HooksRequest:
    return HooksRequest(force=bool(values.get("force")))


OPERATION = Operation(
    spec=spec("hooks-install"),
    request_model=HooksRequest,
    response_model=HooksResponse,
    handler=hooks_install,
    cli_params=[
        click.Option(["--force"], is_flag=True, help="Write into a tracked hooks directory."),
    ],
    from_cli=_from_cli,
    render_text=render,
    accepts_request_file=False,
)
