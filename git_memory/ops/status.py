"""`git memory status`: binding, memory root and counts of pending work."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from git_memory.contracts.status import EmptyRequest, StatusResponse
from git_memory.errors import GitMemoryError
from git_memory.failpoints import failpoint
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec

# Each subsystem contributes counts under its own key: ("sessions", "module:function"), the
# function taking the OpContext and returning JSON data. Named by string so status imports a
# subsystem only when it runs.
COUNT_CONTRIBUTORS: tuple[tuple[str, str], ...] = (
    # --- add one line per subsystem ---
    ("sessions", "git_memory.sessions.status:counts"),
    ("memory", "git_memory.store.status:counts"),
    ("promotions", "git_memory.promote.recover:counts"),
    ("consolidation", "git_memory.consolidate.status:counts"),
    ("freshness", "git_memory.verify.status:counts"),
)


def _contributor(target: str) -> Callable[[OpContext], Any]:
    import importlib

    module_name, function_name = target.split(":")
    function: Callable[[OpContext], Any] = getattr(
        importlib.import_module(module_name), function_name
    )
    return function


def status(ctx: OpContext, request: EmptyRequest) -> StatusResponse:
    """Show the repository binding, the memory root and counts of sessions, tasks,
    candidates, approved memory and promotions of this worktree."""
    failpoint("status.start")
    worktree = ctx.worktree
    counts: dict[str, Any] = {}
    notes: list[str] = []
    for key, contributor in COUNT_CONTRIBUTORS:
        try:
            counts[key] = _contributor(contributor)(ctx)
        except GitMemoryError as exc:
            # Status is where a user looks first: one broken part is reported, not fatal.
            counts[key] = {"error": exc.code}
            notes.append(f"{key}: {exc.message} [{exc.code}]")
    return StatusResponse(
        binding=worktree.binding(),
        memoryRoot=worktree.memory_root,
        memoryRootExists=worktree.memory_dir.is_dir(),
        counts=counts,
        notes=notes,
    )


def render(response: StatusResponse) -> str:
    """Human rendering of status."""
    binding = response.binding
    lines = [
        f"memory root: {response.memoryRoot}"
        + ("" if response.memoryRootExists else " (missing; run `git memory init`)"),
        f"repository: {binding.publicRepositoryIdentity or '(no public origin)'}",
        f"repository key: {binding.repositoryKey[:16]}…",
        f"worktree key: {binding.worktreeKey[:16]}…",
    ]
    for key, value in response.counts.items():
        lines.append(f"{key}: {_flat(value)}")
    lines += response.notes
    return "\n".join(lines)


def _flat(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_flat(v)}" for k, v in value.items() if v not in (None, [], {}))
    if isinstance(value, list):
        return "; ".join(
            " ".join(str(v) for v in item.values()) if isinstance(item, dict) else str(item)
            for item in value
        )
    return str(value)


OPERATION = Operation(
    spec=spec("status"),
    request_model=EmptyRequest,
    response_model=StatusResponse,
    handler=status,
    render_text=render,
    accepts_request_file=False,
)
