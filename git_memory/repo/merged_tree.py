"""The memory files of the tree a running `git merge` is producing.

The index.json merge driver rebuilds the index from the merged memory files rather than
merging three generated documents. git tells a merge driver which commit is being merged in
(`GITHEAD_<oid>` in its environment, set by `git merge`); `git merge-tree --write-tree` then
computes the same merged tree without touching the index or the worktree.

A cherry-pick, a revert and a rebase (merge backend) also run merge drivers but say little
of what they merge: no environment, no conflict-marker labels (git 2.39 expands no `%X`/`%Y`).
They all merge one commit C onto HEAD with C's parent as the base (a revert swaps the two).
C is taken only from where git names it: the sequencer's state (`rebase-merge/done`,
`sequencer/todo`) or its pseudo-refs (`CHERRY_PICK_HEAD`, `REVERT_HEAD`, `REBASE_HEAD`), and
only when its change of index.json is the one git hands the driver; the merged tree is then
the three-way merge of those trees. Commits are never guessed from the index change alone:
another commit can make the same change (on purpose, too) while changing other memory files,
and its trees would rebuild an index that silently drops entries. When nothing names C (a
single pick or revert in git 2.39), when a memory file conflicts, or during `git am` (whose
trees are built from a patch), the tree cannot be known and the caller falls back to a
three-way merge of the index documents, which keeps every entry of either side.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import pygit2

from git_memory._proc import run
from git_memory.errors import GitMemoryError
from git_memory.repo.binding import discover_worktree
from git_memory.repo.gitcli import git_environment

DRIVER_NAME = "git-memory-index"
MERGE_TREE_TIMEOUT = 120.0


def merged_in_commit(environ: dict[str, str] | None = None) -> str | None:
    """The one commit `git merge` is merging in, from `GITHEAD_<oid>`; None otherwise."""
    source = os.environ if environ is None else environ
    heads = [key[len("GITHEAD_") :] for key in source if key.startswith("GITHEAD_")]
    if len(heads) != 1 or len(heads[0]) not in (40, 64):
        return None  # not a merge, or an octopus
    return heads[0]


def merged_memory_files(
    memory_root: str, pathname: str, versions: tuple[bytes, bytes, bytes]
) -> dict[str, str] | None:
    """{path under `memory_root`: text} of the merged tree, or None when it cannot be known.

    `pathname` is the index.json git merges and `versions` its ancestor, current and other
    contents as git handed them to the driver (empty for a side without the file).
    """
    other = merged_in_commit()
    if other is None:
        return _picked_memory_files(memory_root, pathname, versions)
    return _merge_tree_files(memory_root, other)


def _merge_tree_files(memory_root: str, other: str) -> dict[str, str] | None:

    worktree = discover_worktree()
    # Our own driver is replaced by one that keeps "ours": the nested merge must not recurse,
    # and its index.json is not read anyway.
    argv = [
        "git",
        "-c",
        f"merge.{DRIVER_NAME}.driver=true",
        "merge-tree",
        "--write-tree",
        "--no-messages",
        "HEAD",
        other,
    ]
    result = run(argv, cwd=worktree.root, env=git_environment(), timeout=MERGE_TREE_TIMEOUT)
    first = result.stdout.split(b"\n", 1)[0].decode("ascii", "replace").strip()
    if result.returncode not in (0, 1) or not first:
        return None
    repository = pygit2.Repository(str(worktree.git_dir))
    try:
        tree = repository[first].peel(pygit2.Tree)
        node = tree[memory_root].peel(pygit2.Tree)
    except (KeyError, ValueError):
        return {}
    return dict(_texts(repository, node, ""))


def _picked_memory_files(
    memory_root: str, pathname: str, versions: tuple[bytes, bytes, bytes]
) -> dict[str, str] | None:
    try:
        worktree = discover_worktree()
    except GitMemoryError:
        return None  # run by hand outside a worktree: nothing is being picked
    if (worktree.git_dir / "rebase-apply").exists():
        return None  # `git am` / `rebase --apply`: the trees git merges come from a patch
    repository = worktree.repository
    try:
        head = repository.head.peel(pygit2.Commit)
    except (pygit2.GitError, KeyError, ValueError):
        return None
    ancestor, current, other = (_version_id(data) for data in versions)
    if _blob_at(head.tree, pathname) != current:
        return None  # ours is not HEAD (e.g. `cherry-pick -n` over earlier picks)
    pair = _picked_trees(repository, worktree.git_dir, pathname, (ancestor, other))
    if pair is None:
        return None
    merged = repository.merge_trees(pair[0], head.tree, pair[1])
    inside = memory_root.rstrip("/") + "/"
    if merged.conflicts is not None:
        # index.json itself conflicts here (this merge knows no driver); it is not read.
        for sides in merged.conflicts:
            paths = {side.path for side in sides if side is not None} - {pathname}
            if any(path.startswith(inside) for path in paths):
                return None  # git reports it; `git memory reindex` after the resolution
    files = []
    for item in merged:
        if item.path.startswith(inside) and item.mode in _FILE_MODES:
            files += _decoded(item.path[len(inside) :], repository[item.id].peel(pygit2.Blob))
    return dict(files)


def _version_id(data: bytes) -> pygit2.Oid | None:
    """The blob id of one version git handed the driver; None for an absent side."""
    return pygit2.hash(data) if data else None


def _blob_at(tree: pygit2.Tree, path: str) -> pygit2.Oid | None:
    try:
        item = tree[path]
    except KeyError:
        return None
    return item.id if item.type_str == "blob" else None


def _picked_trees(
    repository: pygit2.Repository,
    git_dir: Path,
    pathname: str,
    change: tuple[pygit2.Oid | None, pygit2.Oid | None],
) -> tuple[pygit2.Tree, pygit2.Tree] | None:
    """(base, other) trees of the commit git names as the one being applied, when picking
    (or reverting) it changes `pathname` as `change` says; None otherwise."""
    for commit in _sequencer_named(repository, git_dir):
        found = _pick_of(commit, pathname, change)
        if found is not None:
            return found
    return None


def _pick_of(
    commit: pygit2.Commit, pathname: str, change: tuple[pygit2.Oid | None, pygit2.Oid | None]
) -> tuple[pygit2.Tree, pygit2.Tree] | None:
    """(base, other) when picking `commit` (C^ → C) or reverting it (C → C^) changes
    `pathname` as `change` says."""
    if len(commit.parents) != 1:
        return None
    parent = commit.parents[0]
    before, after = _blob_at(parent.tree, pathname), _blob_at(commit.tree, pathname)
    if (before, after) == change:
        return parent.tree, commit.tree
    if (after, before) == change:
        return commit.tree, parent.tree
    return None


def _sequencer_named(repository: pygit2.Repository, git_dir: Path) -> Iterator[pygit2.Commit]:
    """The commit the sequencer is applying, if it says."""
    for name in _sequencer_lines(git_dir):
        try:
            yield repository.revparse_single(name).peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.GitError):
            continue


# The pseudo-refs naming the commit being applied, when git has written them.
PSEUDO_REFS = ("CHERRY_PICK_HEAD", "REVERT_HEAD", "REBASE_HEAD")


def _sequencer_lines(git_dir: Path) -> list[str]:
    """The commit names of the command being applied: the last command done of a rebase, the
    next command of a multi-commit cherry-pick or revert (`<command> <commit> <subject>`),
    and the pseudo-refs git keeps while it applies one."""
    named = []
    for name in PSEUDO_REFS:
        try:
            value = (git_dir / name).read_text("ascii", "replace").strip()
        except OSError:
            continue
        if value:
            named.append(value.split()[0])
    for relpath, last in (("rebase-merge/done", True), ("sequencer/todo", False)):
        try:
            lines = (git_dir / relpath).read_text("utf-8", "replace").splitlines()
        except OSError:
            continue
        commands = [line.split() for line in lines if line.strip() and not line.startswith("#")]
        if commands:
            words = commands[-1] if last else commands[0]
            if len(words) > 1:
                named.append(words[1])
    return named


_FILE_MODES = (pygit2.GIT_FILEMODE_BLOB, pygit2.GIT_FILEMODE_BLOB_EXECUTABLE)


def _decoded(path: str, blob: pygit2.Blob) -> list[tuple[str, str]]:
    try:
        return [(path, bytes(blob.data).decode("utf-8"))]
    except UnicodeDecodeError:
        return []  # lint reports it; the index skips what cannot be read


def _texts(repository: pygit2.Repository, tree: pygit2.Tree, prefix: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for item in tree:
        path = prefix + str(item.name)
        if item.type_str == "tree":
            found += _texts(repository, repository[item.id].peel(pygit2.Tree), path + "/")
        elif item.type_str == "blob" and item.filemode in _FILE_MODES:
            found += _decoded(path, repository[item.id].peel(pygit2.Blob))
    return found


def memory_root_of(pathname: str) -> str | None:
    """The memory root an index.json path names (`.memory/index.json` → `.memory`)."""
    parent = PurePosixPath(pathname).parent.as_posix()
    return None if parent in (".", "/") or ".." in parent.split("/") else parent
