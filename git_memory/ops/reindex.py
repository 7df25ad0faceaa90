"""`git memory reindex [--check]`: regenerate index.json from the memory tree."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.memory_files import ReindexRequest, ReindexResponse
from git_memory.errors import GitMemoryError
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.repo import memory_tree
from git_memory.safefs import (
    create_file_at,
    open_dir,
    replace_file_at,
    split_relative,
    symlink_refused,
)


def current_index(ctx: OpContext) -> tuple[bytes, bytes | None, list[str]]:
    """(regenerated index, current index.json bytes or None, skipped files) of the worktree."""
    worktree = ctx.worktree
    if not worktree.memory_dir.is_dir():
        raise GitMemoryError(
            "GM_NO_MEMORY_ROOT",
            f"there is no memory root {worktree.memory_root}/ in this worktree",
            hint="git memory init",
        )
    files = memory_tree.worktree_files(worktree.root, worktree.memory_root)
    built, current = memory_tree.expected_index(files)
    return built.data, current, built.skipped


def reindex(ctx: OpContext, request: ReindexRequest) -> ReindexResponse:
    """Regenerate index.json (sorted, one item per line) from entries, scenes and skills.

    Files that do not parse are skipped and listed (lint reports them). With --check nothing
    is written and the command exits 1 when index.json is stale.
    """
    data, current, skipped = current_index(ctx)
    changed = data != current
    root = ctx.worktree.memory_root
    with open_dir(ctx.worktree.root, split_relative(root)) as dir_fd:
        _refuse_special_index(dir_fd, root)
        if changed and not request.check:
            if current is None:
                create_file_at(dir_fd, "index.json", data)
            else:
                replace_file_at(dir_fd, "index.json", data)
    return ReindexResponse(
        path=f"{root}/index.json", check=request.check, changed=changed, skipped=skipped
    )


def _refuse_special_index(dir_fd: int, root: str) -> None:
    """A FIFO, device or directory at index.json is refused by name (never opened: opening
    a FIFO would block), and so is a link; the tree walk reads neither, so they are looked
    at here."""
    try:
        mode = os.lstat("index.json", dir_fd=dir_fd).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISLNK(mode):
        raise symlink_refused(f"{root}/index.json")
    if not stat.S_ISREG(mode):
        raise GitMemoryError(
            "GM_NOT_A_FILE",
            f"{root}/index.json is not a regular file",
            hint=f"remove {root}/index.json, then run git memory reindex",
        )


def render(response: ReindexResponse) -> str:
    """Whether the index changed, and the skipped files."""
    if response.check:
        head = f"{response.path}: {'stale' if response.changed else 'current'}"
    else:
        head = f"{response.path}: {'regenerated' if response.changed else 'already current'}"
    return "\n".join([head, *(f"  skipped {path} (does not parse)" for path in response.skipped)])


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> ReindexRequest:
    return ReindexRequest(check=bool(values.get("check")))


OPERATION = Operation(
    spec=spec("reindex"),
    request_model=ReindexRequest,
    response_model=ReindexResponse,
    handler=reindex,
    cli_params=[
        click.Option(["--check"], is_flag=True, help="Change nothing; exit 1 when stale."),
    ],
    from_cli=_from_cli,
    render_text=render,
    exit_code=lambda response: 1 if response.check and response.changed else 0,
)
