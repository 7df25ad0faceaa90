"""When each entry file landed on the current branch: the first commit that added it.

One walk of HEAD's first-parent history, oldest first: a commit whose entries directory
differs from its first parent's adds the names its parent lacked. Following first parents
dates an entry merged from a side branch at the merge, when it reached this branch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygit2


@dataclass(frozen=True)
class Landing:
    """The commit that first added an entry file, and its commit time (UTC, seconds)."""

    commit: str
    time: int


def entry_landings(repository: Any, entries_dir: str) -> dict[str, Landing]:
    """File name (`<id>.md`) → its landing commit on HEAD's first-parent chain; empty on an
    unborn branch."""
    try:
        head = repository.head.target
    except (pygit2.GitError, KeyError, ValueError):
        return {}
    walker = repository.walk(
        head, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.REVERSE
    )
    walker.simplify_first_parent()
    found: dict[str, Landing] = {}
    before: Any = None
    for commit in walker:
        tree = _subtree(commit.tree, entries_dir)
        if tree is not None and (before is None or tree.id != before.id):
            known = {item.name for item in before} if before is not None else set()
            for item in tree:
                if item.name not in known and item.name not in found:
                    found[item.name] = Landing(str(commit.id), int(commit.commit_time))
        before = tree
    return found


def _subtree(tree: Any, path: str) -> Any:
    try:
        item = tree[path]
    except KeyError:
        return None
    return item if item.type == pygit2.enums.ObjectType.TREE else None
