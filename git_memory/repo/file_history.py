"""The versions of a few files along HEAD's first-parent history: what each held when.

`impact` asks what the agents' instruction files and settings held when a session started
(`impact/delivery.py`): the version in effect at a moment is the last one committed at or
before it. One walk, oldest first; a file's text is read only where its blob changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygit2

from git_memory.repo.landing import REWRITTEN_AFTER, first_parent_walk

# Instruction files are small; a larger blob is read only up to this size.
MAX_VERSION_BYTES = 1 << 20
# How many directories `files_named` looks into at most (a monorepo's tree is large).
MAX_TREES = 4000

# (commit time in UTC seconds, the file's text then, None while it did not exist)
Version = tuple[int, str | None]


def file_versions(
    repository: Any, paths: Sequence[str], since: int = 0
) -> dict[str, list[Version]]:
    """Path → its versions, oldest first, each where a first-parent commit changed it, at
    that commit's moment (its time, or a later commit's when that one is dated earlier); the
    version in effect at `since` comes first and older ones are left out. Empty on an
    unborn branch."""
    walked = first_parent_walk(repository)
    if walked is None:
        return {}
    _, walker = walked
    commits = list(walker)
    # A commit made again (a rebase, a squash) is dated when its change was written, as
    # `landing.py` dates an entry it holds; and a commit existed by the time of any commit
    # made on top of it: its moment is the earliest of its own and its descendants'.
    moments = [_written(commit) for commit in commits]
    for number in range(len(moments) - 2, -1, -1):
        moments[number] = min(moments[number], moments[number + 1])
    found: dict[str, list[Version]] = {path: [] for path in paths}
    blobs: dict[str, Any] = {}
    earlier: tuple[int, Any] | None = None
    for moment, commit in zip(moments, commits, strict=True):
        if moment < since:
            earlier = (moment, commit)
            continue
        if earlier is not None:  # the versions in effect when the window opens
            _read(repository, *earlier, paths=paths, blobs=blobs, found=found)
            earlier = None
        _read(repository, moment, commit, paths=paths, blobs=blobs, found=found)
    if earlier is not None:
        _read(repository, *earlier, paths=paths, blobs=blobs, found=found)
    return {path: versions for path, versions in found.items() if versions}


def _written(commit: Any) -> int:
    committed, authored = int(commit.commit_time), int(commit.author.time)
    return authored if committed - authored > REWRITTEN_AFTER else committed


def _read(
    repository: Any,
    moment: int,
    commit: Any,
    *,
    paths: Sequence[str],
    blobs: dict[str, Any],
    found: dict[str, list[Version]],
) -> None:
    for path in paths:
        blob = _blob_at(commit.tree, path)
        if path in blobs and blobs[path] == blob:
            continue
        blobs[path] = blob
        text = None if blob is None else _text(repository, blob)
        found[path].append((moment, text))


def _blob_at(tree: Any, path: str) -> Any:
    try:
        item = tree[path]
    except KeyError:
        return None
    return item.id if item.type == pygit2.enums.ObjectType.BLOB else None


def _text(repository: Any, blob_id: Any) -> str:
    data = repository[blob_id].data[:MAX_VERSION_BYTES]
    return str(data.decode("utf-8", "replace"))


def files_named(repository: Any, names: Sequence[str], depth: int = 3, most: int = 64) -> list[str]:
    """Paths of HEAD's tree, at most `depth` directories down, whose file name is one of
    `names` (nested instruction files: `web/CLAUDE.md`); at most `most`, shallowest first,
    and at most a few thousand directories looked into."""
    walked = first_parent_walk(repository)
    if walked is None:
        return []
    wanted = set(names)
    found: list[str] = []
    level: list[tuple[str, Any]] = [("", repository[walked[0]].tree)]
    budget = MAX_TREES
    for _ in range(depth + 1):
        deeper: list[tuple[str, Any]] = []
        for prefix, tree in level:
            for item in tree:
                path = f"{prefix}{item.name}"
                if item.type == pygit2.enums.ObjectType.TREE and budget > 0:
                    budget -= 1
                    deeper.append((f"{path}/", repository[item.id]))
                elif item.name in wanted and len(found) < most:
                    found.append(path)
        level = deeper
    return found
