"""What a commit changed, read with pygit2."""

from __future__ import annotations

from typing import Any

import pygit2


def changed_paths(repository: Any, hex_id: str) -> list[str] | None:
    """Paths a commit changed against its first parent (every path of a root commit);
    None when `hex_id` names no commit of this repository."""
    try:
        commit = repository.get(hex_id)
    except (ValueError, KeyError):
        return None
    if commit is None or commit.type != pygit2.enums.ObjectType.COMMIT:
        return None
    if commit.parents:
        diff = repository.diff(commit.parents[0], commit)
        paths = {delta.new_file.path for delta in diff.deltas}
        paths |= {delta.old_file.path for delta in diff.deltas}
        return sorted(paths)
    return sorted(entry_path for entry_path in _walk(commit.tree, ""))


def _walk(tree: Any, prefix: str) -> list[str]:
    found: list[str] = []
    for entry in tree:
        path = f"{prefix}{entry.name}"
        if entry.type == pygit2.enums.ObjectType.TREE:
            found += _walk(entry, path + "/")
        else:
            found.append(path)
    return found
