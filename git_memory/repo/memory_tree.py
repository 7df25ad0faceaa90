"""Read the memory root as files: from the worktree (no-follow) or from the git index.

Both readers return `MemoryFile`s keyed by their path relative to the memory root, so lint,
fmt and reindex treat the worktree and the staged snapshot the same way. A symbolic link is
reported (never followed): lint turns it into a blocking finding, fmt refuses it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from git_memory.safefs import DIR_FLAGS, open_dir, read_at, split_relative

SYMLINK_MODE = 0o120000
GITLINK_MODE = 0o160000
REGULAR_MODE = 0o100644
# The index the commit will record: git passes a temporary one to hooks of `commit -a` and
# `commit <paths>`; the hook shim forwards it under this name after scrubbing GIT_*.
INDEX_FILE_VARIABLES = ("GIT_MEMORY_INDEX_FILE", "GIT_INDEX_FILE")


@dataclass(frozen=True)
class MemoryFile:
    """One file of a memory root; `data` is None for a symbolic link or a gitlink.

    `root_prefix` is "" for the configured memory root, else the worktree-relative root (with
    a trailing slash) the file belongs to; `relpath` is relative to that root. A `leftover`
    (a temp file of ours staged outside every memory root) has its worktree path as `relpath`.
    """

    relpath: str
    data: bytes | None
    kind: str = "file"
    root_prefix: str = ""

    def worktree_path(self, memory_root: str) -> str:
        """The worktree-relative path (`relpath` already is one for a leftover)."""
        if self.kind == "leftover":
            return self.relpath
        return f"{self.root_prefix or memory_root.rstrip('/') + '/'}{self.relpath}"

    @property
    def is_symlink(self) -> bool:
        """Whether this entry is a symbolic link (refused, never read through)."""
        return self.kind == "symlink"


def worktree_files(root: Path, memory_root: str) -> list[MemoryFile]:
    """Every file below the memory root in the worktree, sorted; [] when it does not exist."""
    try:
        with open_dir(root, split_relative(memory_root)) as fd:
            return sorted(_walk(fd, ""), key=lambda f: f.relpath)
    except FileNotFoundError:
        return []


def _walk(dir_fd: int, prefix: str) -> Iterator[MemoryFile]:
    for entry in sorted(os.scandir(dir_fd), key=lambda e: e.name):
        relpath = prefix + entry.name
        info = entry.stat(follow_symlinks=False)
        if stat.S_ISLNK(info.st_mode):
            yield MemoryFile(relpath, None, kind="symlink")
        elif stat.S_ISDIR(info.st_mode):
            child = os.open(entry.name, DIR_FLAGS, dir_fd=dir_fd)
            try:
                yield from _walk(child, relpath + "/")
            finally:
                os.close(child)
        elif stat.S_ISREG(info.st_mode):
            data = read_at(dir_fd, entry.name, relpath)
            if data is not None:
                yield MemoryFile(relpath, data)


def index_path_from_environment(environ: dict[str, str] | None = None) -> str | None:
    """The index file a running commit uses, when git (via the hook shim) named one."""
    source = os.environ if environ is None else environ
    for name in INDEX_FILE_VARIABLES:
        value = source.get(name)
        if value:
            return value
    return None


@dataclass(frozen=True)
class StagedEntry:
    """One stage-0 entry of the index the commit records."""

    path: str
    mode: int
    oid: str


def staged_entries(root: Path, index_path: str | None) -> list[StagedEntry]:
    """The entries of the index, as git lists them (`git ls-files --stage -z`).

    git reads every index format it writes (split index, sparse index, future versions) and
    the temporary index of `commit -a` through `GIT_INDEX_FILE`; libgit2 does not.
    """
    from git_memory._proc import run
    from git_memory.errors import GitMemoryError
    from git_memory.repo.gitcli import git_environment

    env = git_environment()
    if index_path:
        env["GIT_INDEX_FILE"] = index_path
    try:
        result = run(["git", "ls-files", "--stage", "-z"], cwd=root, env=env, timeout=120)
    except OSError as exc:
        raise GitMemoryError("GM_GIT_UNAVAILABLE", "the git program could not be started") from exc
    if result.returncode != 0:
        detail = result.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitMemoryError(
            "GM_GIT_FAILED", f"git ls-files failed: {detail[0] if detail else 'no output'}"
        )
    entries: list[StagedEntry] = []
    for record in result.stdout.split(b"\0"):
        if not record:
            continue
        meta, _, path = record.partition(b"\t")
        mode, oid, stage = meta.split(b" ")
        if stage == b"0":
            entries.append(
                StagedEntry(path.decode("utf-8", "surrogateescape"), int(mode, 8), oid.decode())
            )
    return entries


def is_leftover_name(name: str) -> bool:
    """A temp file of an interrupted write of ours, or a promotion artifact."""
    from git_memory.safefs import PROMOTION_ARTIFACT_PREFIX, is_temp_name

    return is_temp_name(name) or name.startswith(PROMOTION_ARTIFACT_PREFIX)


def staged_memory_roots(
    entries: list[StagedEntry], memory_root: str, read_blob: Callable[[str], bytes]
) -> list[str]:
    """The memory roots a commit carries: the configured one, and every directory whose
    staged `index.json` declares a memory index (so files staged under a previous
    `memory.root` are still linted after it changes). Longest first."""
    from git_memory.formats.index_json import INDEX_FORMAT, ORIGINAL_INDEX_FORMAT

    roots = {memory_root.rstrip("/")}
    markers = (INDEX_FORMAT.encode(), ORIGINAL_INDEX_FORMAT.encode())
    for entry in entries:
        directory, _, name = entry.path.rpartition("/")
        if name != "index.json" or not directory or entry.mode != REGULAR_MODE:
            continue
        if any(marker in read_blob(entry.oid)[:4096] for marker in markers):
            roots.add(directory)
    return sorted(roots, key=lambda root: (-len(root), root))


def staged_files(repository: Any, memory_root: str, index_path: str | None) -> list[MemoryFile]:
    """Every index entry below the staged memory roots: the blobs the commit will contain.

    `relpath` is relative to the configured memory root for its files, and worktree-relative
    (`root_prefix` set) for files of another memory root. `index_path` selects a temporary
    index (`git commit -a`, `git commit <paths>`); None reads the repository's own index.
    """
    root = Path(repository.workdir)
    entries = staged_entries(root, index_path)

    def read_blob(oid: str) -> bytes:
        return bytes(repository[oid].data)

    roots = staged_memory_roots(entries, memory_root, read_blob)
    found: list[MemoryFile] = []
    for entry in entries:
        owner = next((r for r in roots if entry.path.startswith(r + "/")), None)
        if owner is None:
            if is_leftover_name(entry.path.rsplit("/", 1)[-1]):
                # A temp of ours anywhere in the commit (CLAUDE.md's, a skill projection's).
                found.append(MemoryFile(entry.path, None, kind="leftover"))
            continue
        relpath = entry.path[len(owner) + 1 :]
        prefix = "" if owner == memory_root.rstrip("/") else owner + "/"
        if entry.mode == SYMLINK_MODE:
            found.append(MemoryFile(relpath, None, kind="symlink", root_prefix=prefix))
        elif entry.mode == GITLINK_MODE:
            found.append(MemoryFile(relpath, None, kind="gitlink", root_prefix=prefix))
        else:
            found.append(MemoryFile(relpath, read_blob(entry.oid), root_prefix=prefix))
    return sorted(found, key=lambda f: (f.root_prefix, f.relpath))


def is_tracked_dir(repository: Any, relpath: str) -> bool:
    """Whether any file below worktree-relative `relpath` is in the index."""
    index = repository.index
    index.read(False)
    prefix = relpath.rstrip("/") + "/"
    return any(entry.path.startswith(prefix) for entry in index)


def memory_prefixes(root: Path, memory_root: str, paths: list[str]) -> list[str]:
    """PATH arguments (relative to the cwd) as prefixes relative to the memory root.

    "" selects the whole root. A path outside the memory root is `GM_PATH_OUTSIDE_MEMORY_ROOT`.
    """
    from git_memory.errors import GitMemoryError

    prefixes: list[str] = []
    base = (root / memory_root).as_posix().rstrip("/")
    for given in paths:
        absolute = Path(os.path.abspath(given))
        parent = Path(os.path.realpath(absolute.parent)) / absolute.name
        text = parent.as_posix()
        if text == base:
            prefixes.append("")
        elif text.startswith(base + "/"):
            prefixes.append(text[len(base) + 1 :])
        else:
            raise GitMemoryError(
                "GM_PATH_OUTSIDE_MEMORY_ROOT",
                f"{given!r} is not inside the memory root {memory_root}/",
                hint=f"pass files or directories under {memory_root}/",
            )
    return prefixes


def select(files: list[MemoryFile], prefixes: list[str]) -> list[MemoryFile]:
    """The files named by `prefixes` (a file's relpath or a directory of it)."""
    if not prefixes or "" in prefixes:
        return files
    return [
        f
        for f in files
        if any(f.relpath == p or f.relpath.startswith(p.rstrip("/") + "/") for p in prefixes)
    ]


def expected_index(files: list[MemoryFile]) -> tuple[Any, bytes | None]:
    """(the index.json the tree's files call for, the index.json bytes there now or None)."""
    from git_memory.formats.index_json import build_index

    texts: dict[str, str] = {}
    current: bytes | None = None
    for item in files:
        if item.relpath == "index.json":
            current = item.data
        elif item.data is not None:
            try:
                texts[item.relpath] = item.data.decode("utf-8")
            except UnicodeDecodeError:
                continue  # lint reports it; the index skips what cannot be read
    return build_index(texts), current
