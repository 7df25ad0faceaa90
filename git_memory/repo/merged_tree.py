"""The memory files of the tree a running `git merge` is producing.

The index.json merge driver rebuilds the index from the merged memory files rather than
merging three generated documents. git tells a merge driver which commit is being merged in
(`GITHEAD_<oid>` in its environment, set by `git merge`); `git merge-tree --write-tree` then
computes the same merged tree without touching the index or the worktree. Other commands that
run merge drivers (cherry-pick, rebase, `am -3`) do not say what they merge: the caller falls
back to a three-way merge of the index documents there.
"""

from __future__ import annotations

import os
from pathlib import PurePosixPath

import pygit2

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


def merged_memory_files(memory_root: str) -> dict[str, str] | None:
    """{path under `memory_root`: text} of the merged tree, or None when it cannot be known."""
    from git_memory._proc import run

    other = merged_in_commit()
    if other is None:
        return None
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


def _texts(repository: pygit2.Repository, tree: pygit2.Tree, prefix: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for item in tree:
        path = prefix + str(item.name)
        if item.type_str == "tree":
            found += _texts(repository, repository[item.id].peel(pygit2.Tree), path + "/")
        elif item.type_str == "blob" and item.filemode in (
            pygit2.GIT_FILEMODE_BLOB,
            pygit2.GIT_FILEMODE_BLOB_EXECUTABLE,
        ):
            data = bytes(repository[item.id].peel(pygit2.Blob).data)
            try:
                found.append((path, data.decode("utf-8")))
            except UnicodeDecodeError:
                continue  # lint reports it; the index skips what cannot be read
    return found


def memory_root_of(pathname: str) -> str | None:
    """The memory root an index.json path names (`.memory/index.json` → `.memory`)."""
    parent = PurePosixPath(pathname).parent.as_posix()
    return None if parent in (".", "/") or ".." in parent.split("/") else parent
