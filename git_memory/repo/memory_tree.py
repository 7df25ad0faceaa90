"""Read the memory root as files: from the worktree (no-follow) or from the git index.

Both readers return `MemoryFile`s keyed by their path relative to the memory root, so lint,
fmt, reindex and promote treat the worktree and the staged snapshot the same way. Every
directory of the memory root is listed by `list_dir`, the one no-follow listing.

Symbolic links have one policy: they are never followed and never silently left out. The
listing reports them; each reader then turns them into an error (`refuse_links`, for readers
that act on the files: assemble, prepare), a recorded problem (the approved projection's
scan) or a blocking lint finding.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator

from git_memory.errors import UsageError
from git_memory.formats.index_json import INDEX_FORMAT, ORIGINAL_INDEX_FORMAT, build_index
from git_memory.lint.engine import passes_lint
from git_memory.records import Record
from git_memory.safefs import DIR_FLAGS, open_dir, read_at, split_relative, symlink_refused
from git_memory.tempnames import PROMOTION_ARTIFACT_PREFIX, is_temp_name

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:  # the pre-commit hook imports this module; pathlib is loaded where used
    from pathlib import Path
    from typing import Any

# The records here are named tuples, not dataclasses: the pre-commit hook imports this module,
# and `dataclasses` (with `inspect`) is a measured cost of its start-up (docs/performance.md).

SYMLINK_MODE = 0o120000
GITLINK_MODE = 0o160000
REGULAR_MODE = 0o100644
# The index the commit will record: git passes a temporary one to hooks of `commit -a` and
# `commit <paths>`; the hook shim forwards it under this name after scrubbing GIT_*.
INDEX_FILE_VARIABLES = ("GIT_MEMORY_INDEX_FILE", "GIT_INDEX_FILE")


class MemoryFile(Record):
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


class Listed(Record):
    """One name in a memory-root directory and its `lstat` (a link is never followed)."""

    name: str
    info: os.stat_result

    @property
    def is_file(self) -> bool:
        """A regular file."""
        return stat.S_ISREG(self.info.st_mode)

    @property
    def is_dir(self) -> bool:
        """A directory."""
        return stat.S_ISDIR(self.info.st_mode)

    @property
    def is_symlink(self) -> bool:
        """A symbolic link: reported, never followed."""
        return stat.S_ISLNK(self.info.st_mode)


def list_dir(root: Path, parts: list[str]) -> list[Listed]:
    """The names directly inside `root/parts` (opened no-follow), sorted, with their lstat;
    dot-names (artifacts of an interrupted write, editor droppings) are left out. [] when the
    directory does not exist."""

    try:
        with open_dir(root, parts) as dir_fd:
            return _listed(dir_fd, with_dots=False)
    except FileNotFoundError:
        return []


def _listed(dir_fd: int, *, with_dots: bool) -> list[Listed]:
    found = []
    for name in sorted(os.listdir(dir_fd)):
        if name.startswith(".") and not with_dots:
            continue
        try:
            found.append(Listed(name, os.stat(name, dir_fd=dir_fd, follow_symlinks=False)))
        except FileNotFoundError:
            continue  # vanished between listing and stat
    return found


def refuse_links(listing: list[Listed], parts: list[str]) -> None:
    """`GM_SYMLINK_REFUSED` for the first symbolic link of a listing: a link in the memory
    root could point anywhere on the machine, so a reader that acts on the files fails closed."""

    links = [item.name for item in listing if item.is_symlink]
    if links:
        raise symlink_refused("/".join([*parts, links[0]]))


def worktree_files(root: Path, memory_root: str) -> list[MemoryFile]:
    """Every file below the memory root in the worktree, sorted; [] when it does not exist."""
    try:
        with open_dir(root, split_relative(memory_root)) as fd:
            return sorted(_walk(fd, ""), key=lambda f: f.relpath)
    except FileNotFoundError:
        return []


def _walk(dir_fd: int, prefix: str) -> Iterator[MemoryFile]:
    # Dot-names included: lint reports a leftover temp file of ours.
    for entry in _listed(dir_fd, with_dots=True):
        relpath = prefix + entry.name
        if entry.is_symlink:
            yield MemoryFile(relpath, None, kind="symlink")
        elif entry.is_dir:
            child = os.open(entry.name, DIR_FLAGS, dir_fd=dir_fd)
            try:
                yield from _walk(child, relpath + "/")
            finally:
                os.close(child)
        elif entry.is_file:
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


class StagedEntry(Record):
    """One stage-0 entry of the index the commit records."""

    path: str
    mode: int
    oid: str


def is_leftover_name(name: str) -> bool:
    """A temp file of an interrupted write of ours, or a promotion artifact."""

    return is_temp_name(name) or name.startswith(PROMOTION_ARTIFACT_PREFIX)


def staged_memory_roots(
    entries: list[StagedEntry], memory_root: str, read_blob: Callable[[str], bytes]
) -> list[str]:
    """The memory roots a commit carries: the configured one, and every directory whose
    staged `index.json` declares a memory index (so files staged under a previous
    `memory.root` are still linted after it changes). Longest first."""

    roots = {memory_root.rstrip("/")}
    markers = (INDEX_FORMAT.encode(), ORIGINAL_INDEX_FORMAT.encode())
    for entry in entries:
        directory, _, name = entry.path.rpartition("/")
        if name != "index.json" or not directory or entry.mode != REGULAR_MODE:
            continue
        if any(marker in read_blob(entry.oid)[:4096] for marker in markers):
            roots.add(directory)
    return sorted(roots, key=lambda root: (-len(root), root))


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

    prefixes: list[str] = []
    for given in paths:
        prefix = _memory_prefix(root, memory_root, given)
        if prefix is None:
            raise UsageError(
                "GM_PATH_OUTSIDE_MEMORY_ROOT",
                f"{given!r} is not inside the memory root {memory_root}/",
                hint=f"pass files or directories under {memory_root}/",
            )
        prefixes.append(prefix)
    return prefixes


def inside_memory_root(root: Path, memory_root: str, paths: list[str]) -> list[str]:
    """The PATH arguments that lie inside the memory root."""
    return [given for given in paths if _memory_prefix(root, memory_root, given) is not None]


def _memory_prefix(root: Path, memory_root: str, given: str) -> str | None:
    # Start-up seam (docs/architecture.md): the pre-commit hook never needs pathlib.
    from pathlib import Path  # noqa: PLC0415

    base = (root / memory_root).as_posix().rstrip("/")
    absolute = Path(os.path.abspath(given))
    text = (Path(os.path.realpath(absolute.parent)) / absolute.name).as_posix()
    if text == base:
        return ""
    return text[len(base) + 1 :] if text.startswith(base + "/") else None


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
    return build_index(texts, passes_lint), current
