"""`git memory init`: create the memory root."""

from __future__ import annotations

from git_memory.contracts.status import EmptyRequest, InitResponse
from git_memory.formats.index_json import render_index
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.safefs import create_file_at, open_dir, split_relative

MEMORY_SUBDIRS = ("entries", "scenes", "skills")


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
    return InitResponse(memory_root=worktree.memory_root, created=created)


def render(response: InitResponse) -> str:
    """Human summary of what init did."""
    if not response.created:
        return f"memory root {response.memory_root}/ is already initialized"
    lines = [f"initialized memory root {response.memory_root}/"]
    lines += [f"  created {path}" for path in response.created]
    return "\n".join(lines)


OPERATION = Operation(
    spec=spec("init"),
    request_model=EmptyRequest,
    response_model=InitResponse,
    handler=init,
    render_text=render,
    accepts_request_file=False,
)
