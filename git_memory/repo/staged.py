"""The memory files a commit will record, read through git itself (no pygit2).

The pre-commit hook runs on every commit, so its start-up is a measured budget
(`tests/perf/bench_cli_startup.py`): importing pygit2 alone costs more than the whole budget.
Git's own view of the index is also the one the commit uses: `git rev-parse` finds the
worktree, `git config` the memory root, `git ls-files -s` lists the index entries below it and
one `git cat-file --batch` process reads every blob.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from git_memory import _proc
from git_memory.errors import GitMemoryError
from git_memory.paths import state_home_text
from git_memory.repo.memory_root import resolve_memory_root
from git_memory.repo.memory_tree import (
    GITLINK_MODE,
    REGULAR_MODE,
    SYMLINK_MODE,
    MemoryFile,
    StagedEntry,
    is_leftover_name,
    staged_memory_roots,
)

# What the hook keeps of git's environment: the user's configuration, not the repository git
# exported for the hook (the worktree is discovered from the current directory, as pygit2 does).
KEPT_GIT_VARIABLES = (
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_NOSYSTEM",
    "GIT_CEILING_DIRECTORIES",
)


class StagedWorktree(NamedTuple):
    """A worktree as the staged lint needs it: its root, its memory root and the configured
    `memory.home` (None when unset).

    Paths are strings and the record a named tuple: pathlib's and dataclasses' imports would
    cost the hook's start-up.
    """

    root: str
    memory_root: str
    home_setting: str | None = None

    @property
    def state_home(self) -> str:
        """The private state home, resolved and validated as every command does (not created)."""

        return state_home_text(self.home_setting)


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
    settings = _memory_settings(root, env)
    memory_root = resolve_memory_root(root, settings.get("memory.root") or None)
    return StagedWorktree(root, memory_root, settings.get("memory.home") or None)


def _memory_settings(root: str, env: dict[str, str]) -> dict[str, str]:
    """`memory.root` and `memory.home` as git resolves them (the last value wins), in one call.

    `-z` keeps each value exactly as configured, as the full command's config lookup does.
    """
    configured = _proc.run(
        ["git", "config", "-z", "--get-regexp", r"^memory\.(root|home)$"], cwd=root, env=env
    )
    settings: dict[str, str] = {}
    for record in configured.stdout.decode("utf-8", "surrogateescape").split("\0"):
        key, _, value = record.partition("\n")
        if key:
            settings[key] = value
    return settings


def staged_files(
    root: os.PathLike[str] | str, memory_root: str, index_path: str | None
) -> list[MemoryFile]:
    """Every index entry below the staged memory roots, with its blob: what the commit will
    contain.

    The roots are the configured one and every directory whose staged `index.json` declares a
    memory index (files staged under a previous `memory.root` are still linted). `relpath` is
    relative to the configured root for its files and worktree-relative (`root_prefix` set)
    for another root's; a temp file of ours staged anywhere else is a `leftover`. Gitlinks are
    reported, never read. `index_path` selects a temporary index (`git commit -a`,
    `git commit <paths>`); None reads the repository's own index.
    """
    root = os.fspath(root)
    env = _proc.scrubbed_environment(keep_git=KEPT_GIT_VARIABLES)
    if index_path:
        env["GIT_INDEX_FILE"] = index_path
    entries = _entries(_git(["ls-files", "--stage", "-z"], root, env))
    configured = memory_root.rstrip("/")
    # One `git cat-file --batch` for everything: the blobs below the configured root and below
    # every directory with a staged index.json (a root candidate, its index.json included).
    candidates = {configured} | {
        e.path[: -len("/index.json")]
        for e in entries
        if e.mode == REGULAR_MODE and e.path.endswith("/index.json")
    }
    readable = [
        e.oid
        for e in entries
        if e.mode not in (SYMLINK_MODE, GITLINK_MODE)
        and any(e.path.startswith(c + "/") for c in candidates)
    ]
    contents = _read_blobs(readable, root, env)
    roots = staged_memory_roots(entries, memory_root, contents.__getitem__)
    placed: list[tuple[StagedEntry, str, str]] = []  # (entry, relpath, root_prefix)
    found: list[MemoryFile] = []
    for entry in entries:
        owner = next((r for r in roots if entry.path.startswith(r + "/")), None)
        if owner is None:
            if is_leftover_name(entry.path.rsplit("/", 1)[-1]):
                found.append(MemoryFile(entry.path, None, kind="leftover"))
            continue
        placed.append(
            (entry, entry.path[len(owner) + 1 :], "" if owner == configured else owner + "/")
        )
    wanted = [e.oid for e, _, _ in placed if e.mode not in (SYMLINK_MODE, GITLINK_MODE)]
    contents.update(_read_blobs([oid for oid in wanted if oid not in contents], root, env))
    for entry, relpath, prefix in placed:
        if entry.mode == SYMLINK_MODE:
            found.append(MemoryFile(relpath, None, kind="symlink", root_prefix=prefix))
        elif entry.mode == GITLINK_MODE:
            found.append(MemoryFile(relpath, None, kind="gitlink", root_prefix=prefix))
        else:
            found.append(MemoryFile(relpath, contents[entry.oid], root_prefix=prefix))
    return sorted(found, key=lambda f: (f.root_prefix, f.relpath))


def _entries(listing: bytes) -> list[StagedEntry]:
    """Stage-0 entries of `git ls-files --stage -z` (a conflicted path cannot be committed;
    git stops that commit itself)."""
    entries: list[StagedEntry] = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode_text, oid, stage = meta.decode("ascii").split(" ")
        if stage == "0":
            entries.append(StagedEntry(os.fsdecode(raw_path), int(mode_text, 8), oid))
    return entries


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
