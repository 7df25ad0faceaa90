"""Where the memory root of a worktree is, from `memory.root` and the directories present.

Plain strings only (neither pygit2 nor pathlib, whose imports cost the pre-commit hook's
start-up): the hook resolves the root through git's own `git config`, every other command
through the pygit2 binding.
"""

from __future__ import annotations

import os

from git_memory.errors import GitMemoryError

DEFAULT_MEMORY_ROOT = ".memory"
LEGACY_MEMORY_ROOT = ".threadshare/memory"


def resolve_memory_root(worktree_root: os.PathLike[str] | str, configured: str | None) -> str:
    """The memory root relative to the worktree root, POSIX style."""
    if configured:
        return _relative_memory_root(configured)
    if not os.path.exists(os.path.join(worktree_root, DEFAULT_MEMORY_ROOT)) and os.path.isdir(
        os.path.join(worktree_root, LEGACY_MEMORY_ROOT)
    ):
        return LEGACY_MEMORY_ROOT
    return DEFAULT_MEMORY_ROOT


def _relative_memory_root(configured: str) -> str:
    # The parts as a path has them: empty and `.` segments dropped, `..` kept.
    parts = [part for part in configured.split("/") if part not in ("", ".")]
    # Inside the git directory nothing can be committed and git's own files sit beside it.
    in_git_dir = bool(parts) and parts[0] == ".git"
    if os.path.isabs(configured) or ".." in parts or not parts or in_git_dir:
        raise GitMemoryError(
            "GM_MEMORY_ROOT_INVALID",
            f"memory.root must be a relative path inside the worktree: {configured!r}",
            hint="git config memory.root .memory",
        )
    return "/".join(parts)
