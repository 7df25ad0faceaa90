"""The memory files a commit will record, read through git itself (no pygit2).

The pre-commit hook runs on every commit, so its start-up is a measured budget
(`tests/perf/bench_cli_startup.py`): importing pygit2 alone costs more than the whole budget.
Git's own view of the index is also the one the commit uses: `git rev-parse` finds the
worktree, `git config` the memory root, `git ls-files -s` lists the index entries below it and
one `git cat-file --batch` process reads every blob.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from git_memory import _proc
from git_memory.errors import GitMemoryError
from git_memory.repo.memory_root import resolve_memory_root
from git_memory.repo.memory_tree import SYMLINK_MODE, MemoryFile

GITLINK_MODE = 0o160000
# What the hook keeps of git's environment: the user's configuration, not the repository git
# exported for the hook (the worktree is discovered from the current directory, as pygit2 does).
KEPT_GIT_VARIABLES = (
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_NOSYSTEM",
    "GIT_CEILING_DIRECTORIES",
)


@dataclass(frozen=True)
class StagedWorktree:
    """A worktree as the staged lint needs it: its root and its memory root.

    Paths are strings here: pathlib's import would cost the hook's start-up.
    """

    root: str
    memory_root: str


def _git(args: list[str], cwd: str, env: dict[str, str], input_bytes: bytes | None = None) -> bytes:
    result = _proc.run(["git", *args], cwd=cwd, env=env, input_bytes=input_bytes)
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip() or f"git {args[0]} failed"
        raise GitMemoryError("GM_GIT_FAILED", message.splitlines()[-1])
    return result.stdout


def discover(start: str | None = None) -> StagedWorktree:
    """The worktree containing `start` (default: cwd), or the `GM_` error discovery raises."""
    cwd = os.path.realpath(start or os.getcwd())
    env = _proc.scrubbed_environment(keep_git=KEPT_GIT_VARIABLES)
    probe = _proc.run(
        ["git", "rev-parse", "--is-bare-repository", "--is-inside-git-dir", "--show-toplevel"],
        cwd=cwd,
        env=env,
    )
    answers = probe.stdout.decode("utf-8", "surrogateescape").splitlines()
    if len(answers) >= 1 and answers[0] == "true":
        raise GitMemoryError(
            "GM_BARE_REPOSITORY",
            "this is a bare repository; git memory needs a worktree",
            hint="run it in a checkout (git worktree add …) of this repository",
        )
    if len(answers) >= 2 and answers[1] == "true":
        raise GitMemoryError(
            "GM_INSIDE_GIT_DIR",
            "the current directory is inside the .git directory",
            hint="cd to the worktree root first",
        )
    if probe.returncode != 0 or len(answers) < 3:
        raise GitMemoryError(
            "GM_NOT_A_WORKTREE",
            "not inside a git worktree",
            hint="run this inside a git repository, or pass --repository PATH",
        )
    root = os.path.realpath(answers[2])
    configured = _proc.run(["git", "config", "--get", "memory.root"], cwd=root, env=env)
    value = configured.stdout.decode("utf-8", "surrogateescape").strip()
    return StagedWorktree(root, resolve_memory_root(root, value or None))


def staged_files(
    root: os.PathLike[str] | str, memory_root: str, index_path: str | None
) -> list[MemoryFile]:
    """Every index entry below the memory root, with its blob: what the commit will contain.

    `index_path` selects a temporary index (`git commit -a`, `git commit <paths>`); None
    reads the repository's own index.
    """
    root = os.fspath(root)
    env = _proc.scrubbed_environment(keep_git=KEPT_GIT_VARIABLES)
    if index_path:
        env["GIT_INDEX_FILE"] = index_path
    prefix = memory_root.rstrip("/") + "/"
    listing = _git(["ls-files", "--stage", "-z", "--", f":(top,literal){prefix}"], root, env)
    entries: list[tuple[str, int, str]] = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode_text, oid, stage = meta.decode("ascii").split(" ")
        path = os.fsdecode(raw_path)
        if stage != "0" or not path.startswith(prefix):
            continue  # a conflicted path cannot be committed; git stops the commit itself
        entries.append((path[len(prefix) :], int(mode_text, 8), oid))
    blobs = [oid for _, mode, oid in entries if mode not in (SYMLINK_MODE, GITLINK_MODE)]
    contents = _read_blobs(blobs, root, env)
    found = []
    for relpath, mode, oid in entries:
        if mode == SYMLINK_MODE:
            found.append(MemoryFile(relpath, None))
        elif mode != GITLINK_MODE:
            found.append(MemoryFile(relpath, contents[oid]))
    return sorted(found, key=lambda f: f.relpath)


def _read_blobs(oids: list[str], root: str, env: dict[str, str]) -> dict[str, bytes]:
    """The content of every blob, from one `git cat-file --batch` process."""
    if not oids:
        return {}
    unique = list(dict.fromkeys(oids))
    out = _git(["cat-file", "--batch"], root, env, "".join(f"{o}\n" for o in unique).encode())
    contents: dict[str, bytes] = {}
    position = 0
    for oid in unique:
        end = out.index(b"\n", position)
        header = out[position:end].decode("ascii").split(" ")
        if len(header) != 3 or header[1] != "blob":
            raise GitMemoryError("GM_GIT_FAILED", f"staged object {oid} cannot be read")
        size = int(header[2])
        contents[oid] = out[end + 1 : end + 1 + size]
        position = end + 1 + size + 1  # the content is followed by a newline
    return contents
