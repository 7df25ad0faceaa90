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


# Names git gives meaning to: a memory root there is a git directory, or rewrites submodule,
# attribute or ignore rules of the worktree.
_GIT_SPECIAL = (".git", ".mailmap")
# Bidi and zero-width format characters: a root shown to a reviewer must read as it is.
_INVISIBLE = frozenset("\u061c\u200b\u200c\u200d\u200e\u200f\u2028\u2029\ufeff") | frozenset(
    chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))
)
# Characters that change the meaning of the `.gitattributes` line naming the index.
_PATTERN_SPECIAL = frozenset(' \t"\\*?[]!#')


def _relative_memory_root(configured: str) -> str:
    # The parts as a path has them: empty and `.` segments dropped, `..` kept.
    parts = [part for part in configured.split("/") if part not in ("", ".")]
    if os.path.isabs(configured) or ".." in parts or not parts:
        raise GitMemoryError(
            "GM_MEMORY_ROOT_INVALID",
            f"memory.root must be a relative path inside the worktree: {configured!r}",
            hint="git config memory.root .memory",
        )
    problem = _memory_root_problem(parts)
    if problem:
        raise GitMemoryError(
            "GM_MEMORY_ROOT_INVALID",
            f"memory.root {problem}: {configured!r}",
            hint="git config memory.root .memory",
        )
    return "/".join(parts)


def _memory_root_problem(parts: list[str]) -> str | None:
    for char in "/".join(parts):
        if ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0:
            return "contains a control character"
        if char in _INVISIBLE:
            return "contains an invisible or bidirectional control character"
        if char in _PATTERN_SPECIAL:
            return "contains a space, quote or pattern character"
    for part in parts:
        # Case-folded: on case-insensitive file systems `.GIT` is the git directory. Inside a
        # git directory nothing can be committed and git's own files sit beside it.
        if part.casefold().startswith(_GIT_SPECIAL) or part.casefold().startswith("git~"):
            return f"has a component git reserves ({part})"
    return None
