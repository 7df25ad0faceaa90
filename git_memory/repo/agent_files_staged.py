"""Whether a commit's staged memory changes leave an assembled agent's file behind, told
cheaply enough for the pre-commit hook (docs/guide-context.md, "In step").

The hook cannot render the block (that needs the whole assembler), so it compares times: a
staged memory file changed after the agent's file was last written and after assemble last
ran in this worktree (assemble touches a private record on every run, `touch_assembled`)
means the file is behind. A file assemble brought up to date but the commit leaves out
(modified, not staged) is named too. Warnings only: the commit goes on.
"""

from __future__ import annotations

import os

from git_memory.formats.generated_block import AGENT_FILES, holds_block
from git_memory.repo.memory_tree import index_path_from_environment
from git_memory.repo.staged import StagedWorktree, run_git

# Enough to find the BEGIN line of a block assemble writes; a larger file is read no further.
_READ_BYTES = 8 * 1024 * 1024


def assembled_record(state_home: str, root: str) -> str:
    """The private file whose modification time says when assemble last ran for `root`."""
    # Start-up seam (docs/architecture.md): the hook's start-up is a budget
    # (tests/perf/bench_cli_startup.py) and most commits never get here; hashlib and the
    # OpenSSL it loads are paid only by a commit that changes memory beside an assembled file.
    import hashlib  # noqa: PLC0415

    real = os.path.realpath(root).encode("utf-8", "surrogateescape")
    name = "assembled-" + hashlib.sha256(real).hexdigest()[:32]
    return os.path.join(state_home, "artifacts", "context-blocks", name)


def touch_assembled(state_home: str, root: str) -> None:
    """Record that assemble ran for `root` now (a 0600 file in a 0700 directory)."""
    path = assembled_record(state_home, root)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    os.close(fd)
    os.utime(path)


def _mtime(path: str) -> float | None:
    try:
        return os.lstat(path).st_mtime
    except OSError:
        return None


def _holds_block(path: str) -> bool:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        return holds_block(os.read(fd, _READ_BYTES))
    except OSError:
        return False
    finally:
        os.close(fd)


def _git_names(worktree: StagedWorktree, *args: str) -> list[str]:
    # The index this commit records (`commit -a` and `commit <paths>` use a temporary one).
    index = index_path_from_environment()
    code, out, _ = run_git(["git", *args], cwd=worktree.root, index_path=index)
    if code != 0:
        return []
    return [name for name in out.decode("utf-8", "surrogateescape").split("\0") if name]


def _changed_at(root: str, relpath: str) -> float | None:
    """When a staged memory file last changed in the worktree (a removed one: its folder)."""
    path = os.path.join(root, relpath)
    return _mtime(path) or _mtime(os.path.dirname(path))


def behind_warnings(worktree: StagedWorktree) -> list[str]:
    """What the hook says when the staged memory changes leave an assembled file behind."""
    root = worktree.root
    assembled = [name for name in AGENT_FILES if _holds_block(os.path.join(root, name))]
    if not assembled:
        return []
    diff = ("diff", "--cached", "--name-only", "-z", "--no-renames", "--")
    changed = _git_names(worktree, *diff, worktree.memory_root)
    times = [t for t in (_changed_at(root, name) for name in changed) if t is not None]
    if not times:
        return []
    ran = _mtime(assembled_record(worktree.state_home, root)) or 0.0
    behind = [
        name for name in assembled if max(times) > max(ran, _mtime(os.path.join(root, name)) or 0.0)
    ]
    if behind:
        return [
            f"warning: the staged memory changes are newer than {', '.join(behind)}: run "
            "`git memory assemble`, then `git add` what it updates"
        ]
    unstaged = _git_names(worktree, "diff", "--name-only", "-z", "--", *assembled)
    if unstaged:
        verb = "is" if len(unstaged) == 1 else "are"
        return [
            f"warning: {', '.join(unstaged)} {verb} up to date with this memory but not staged: "
            f"git add {' '.join(unstaged)}"
        ]
    return []
