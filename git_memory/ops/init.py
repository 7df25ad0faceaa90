"""`git memory init`: create the memory root."""

from __future__ import annotations

from git_memory.contracts.status import EmptyRequest, InitResponse
from git_memory.formats.index_json import render_index
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.repo import hooks
from git_memory.safefs import create_file_at, open_dir, split_relative

MEMORY_SUBDIRS = ("entries", "scenes", "skills")
NEXT_STEP_WHY = {
    "git memory hooks install": "pre-commit lint and index.json merge driver, once per clone",
    "git memory sessions sync": "index your agents' transcripts of this worktree",
    "git memory extract --runner builtin": "propose memories from them, then: git memory review",
}


def init(ctx: OpContext, request: EmptyRequest) -> InitResponse:
    """Create the memory root (entries/, scenes/, skills/ and a generated index.json).

    Idempotent; refuses to follow a symbolic link anywhere on the memory root's path.
    """
    worktree = ctx.worktree
    root_parts = split_relative(worktree.memory_root)
    created: list[str] = []
    for sub in MEMORY_SUBDIRS:
        relpath = "/".join([*root_parts, sub])
        existed = (worktree.root / relpath).is_dir()
        with open_dir(worktree.root, [*root_parts, sub], create=True):
            pass
        if not existed:
            created.append(relpath + "/")
    with open_dir(worktree.root, root_parts) as memory_fd:
        try:
            create_file_at(memory_fd, "index.json", render_index())
            created.append(f"{worktree.memory_root}/index.json")
        except FileExistsError:
            pass
    return InitResponse(memory_root=worktree.memory_root, created=created, next=_next_steps(ctx))


def _next_steps(ctx: OpContext) -> list[str]:
    """What a new clone does next: the hooks once (when not installed yet), then index the
    agents' transcripts and extract from them."""
    worktree = ctx.worktree
    directory = hooks.hooks_dir(worktree)
    installed = all(
        hooks.directory_state(worktree, directory, name).state == "installed"
        for name in hooks.HOOK_NAMES
    ) and hooks.driver_registered(worktree)
    steps = [] if installed else ["git memory hooks install"]
    return [*steps, "git memory sessions sync", "git memory extract --runner builtin"]


def render(response: InitResponse) -> str:
    """Human summary of what init did, and what to run next."""
    if not response.created:
        lines = [f"memory root {response.memory_root}/ is already initialized"]
    else:
        lines = [f"initialized memory root {response.memory_root}/"]
        lines += [f"  created {path}" for path in response.created]
    if response.next:
        lines.append("next:")
        width = max(len(step) for step in response.next)
        lines += [f"  {step:<{width}}  # {NEXT_STEP_WHY.get(step, '')}" for step in response.next]
    return "\n".join(lines)


OPERATION = Operation(
    spec=spec("init"),
    request_model=EmptyRequest,
    response_model=InitResponse,
    handler=init,
    render_text=render,
    accepts_request_file=False,
)
