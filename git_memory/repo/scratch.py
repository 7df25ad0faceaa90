"""Throw-away repositories built with pygit2 (for `git memory demo`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pygit2

DEMO_SIGNATURE = ("git memory demo", "demo@example.invalid")


def create_repository(
    path: Path, commits: Sequence[tuple[str, Mapping[str, str]]], *, origin: str | None = None
) -> list[str]:
    """`git init` at `path`, then one commit per (message, files) in order; returns the ids.

    Files are written into the worktree and staged, exactly as a user's `git add` would.
    `origin` becomes the `origin` remote's URL (nothing is fetched or pushed).
    """
    repository = pygit2.init_repository(str(path), initial_head="main")
    if origin:
        repository.remotes.create("origin", origin)
    signature = pygit2.Signature(*DEMO_SIGNATURE)
    ids: list[str] = []
    for message, files in commits:
        for relpath, text in files.items():
            target = path / relpath
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            repository.index.add(relpath)
        repository.index.write()
        tree = repository.index.write_tree()
        parents = [repository.head.target] if ids else []
        commit = repository.create_commit("HEAD", signature, signature, message, tree, parents)
        ids.append(str(commit))
    return ids
