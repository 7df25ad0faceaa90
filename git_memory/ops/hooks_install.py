"""`git memory hooks install [--force]`: the pre-commit lint hook and the merge driver."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import click

from git_memory.contracts.memory_files import HooksRequest, HooksResponse, HookState
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.repo import hooks

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree


def hooks_install(ctx: OpContext, request: HooksRequest) -> HooksResponse:
    """Install the pre-commit hook (runs `git memory lint --staged`) and the merge driver.

    The hook goes into the hooks directory git itself uses (`git rev-parse --git-path hooks`:
    core.hooksPath from any config layer, `git -c` included); a tracked
    hooks directory is refused without --force. A hook already there is kept as
    `pre-commit.legacy` and runs first; our own shim is upgraded in place. The index.json
    merge driver is registered in .gitattributes and the repository's git config.
    """
    worktree = ctx.worktree
    directory = hooks.hooks_dir(worktree)
    hooks.check_untracked(worktree, directory, request.force)
    with hooks.open_hooks_dir(worktree, directory, create=True) as dir_fd:
        states = [hooks.install_hook(dir_fd, name) for name in hooks.HOOK_NAMES]
    attributes = hooks.register_driver(worktree)
    response = build_response(worktree, directory, states)
    if attributes is None:
        return response
    note = (
        f".gitattributes {attributes}: it routes {worktree.memory_root}/index.json to the merge"
        " driver; commit it (`git add .gitattributes`) so teammates' merges use it too"
    )
    return response.model_copy(update={"notes": [*response.notes, note]})


def build_response(worktree: Worktree, directory: Any, states: list[Any]) -> HooksResponse:
    """The hooks document from repo-level hook states."""
    return HooksResponse(
        hooks_dir=hooks.shown_hooks_dir(worktree, directory),
        hooks=[
            HookState(name=s.name, state=s.state, legacy=s.legacy, action=s.action) for s in states
        ],
        merge_driver=hooks.driver_registered(worktree),
    )


def render(response: HooksResponse) -> str:
    """Where git looks for hooks, what each hook is now and what was done, in plain words."""
    lines = [f"hooks directory git uses: {response.hooks_dir}"]
    for hook in response.hooks:
        lines.append(f"  {hook.name}: {_hook_words(hook)}")
    driver = "registered" if response.merge_driver else "not registered"
    lines.append(f"  index.json merge driver: {driver}")
    return "\n".join(lines + response.notes)


def _hook_words(hook: HookState) -> str:
    chained = "; your earlier hook runs first, kept as " + hook.name + ".legacy"
    described = {
        "installed": "git memory's lint hook is installed",
        "outdated": "an older git memory lint hook (`git memory hooks install` upgrades it)",
        "foreign": "another tool's hook (git memory's is not installed)",
        "absent": "no hook",
    }[hook.state]
    done = {
        "installed": "installed git memory's lint hook",
        "upgraded": "upgraded git memory's lint hook",
        "chained": "installed git memory's lint hook",
        "unchanged": "already installed, nothing changed",
        "removed": "removed git memory's lint hook",
        "restored legacy hook": "removed git memory's lint hook and put your earlier hook back",
        "left alone": described + ", left alone",
    }.get(hook.action, described)
    return done + (chained if hook.legacy else "")


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
