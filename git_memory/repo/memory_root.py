"""Where the memory root of a worktree is, from `memory.root` and the directories present.

Plain paths only (no pygit2): the pre-commit hook resolves the root through git's own
`git config`, every other command through the pygit2 binding.
"""

from __future__ import annotations

from pathlib import Path

from git_memory.errors import GitMemoryError

DEFAULT_MEMORY_ROOT = ".memory"
LEGACY_MEMORY_ROOT = ".threadshare/memory"


def resolve_memory_root(worktree_root: Path, configured: str | None) -> str:
    """The memory root relative to the worktree root, POSIX style."""
    if configured:
        return _relative_memory_root(configured)
    if (
        not (worktree_root / DEFAULT_MEMORY_ROOT).exists()
        and (worktree_root / LEGACY_MEMORY_ROOT).is_dir()
    ):
        return LEGACY_MEMORY_ROOT
    return DEFAULT_MEMORY_ROOT


def _relative_memory_root(configured: str) -> str:
    candidate = Path(configured)
    # Inside the git directory nothing can be committed and git's own files sit beside it.
    in_git_dir = bool(candidate.parts) and candidate.parts[0] == ".git"
    if candidate.is_absolute() or ".." in candidate.parts or not candidate.parts or in_git_dir:
        raise GitMemoryError(
            "GM_MEMORY_ROOT_INVALID",
            f"memory.root must be a relative path inside the worktree: {configured!r}",
            hint="git config memory.root .memory",
        )
    return candidate.as_posix()
