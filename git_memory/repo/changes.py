"""What a range of history changed: the paths and lines between a base and HEAD.

`changes_since(repository, base)` diffs the tree of the merge base of `base` and HEAD with
HEAD's tree (what `git diff BASE...HEAD` shows, which is the pull request's own change even
when the base branch moved on since). Each changed file carries its hunks: the line in the
HEAD version where the hunk starts (deletions are placed at the line that now stands where
the removed lines were) and the text of the removed and added lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygit2

from git_memory.errors import GitMemoryError


@dataclass(frozen=True)
class Hunk:
    """One changed region: its first line in the HEAD version and the changed lines' text."""

    line: int
    removed: str
    added: str


@dataclass(frozen=True)
class ChangedFile:
    """A path the range changed (`status`: added, deleted, modified, renamed, …).

    `old_path` differs from `path` for a rename; a deleted file has no lines at HEAD."""

    path: str
    old_path: str
    status: str
    hunks: tuple[Hunk, ...]


@dataclass(frozen=True)
class Changes:
    """The resolved range and every file it changed."""

    base: str
    merge_base: str
    head: str
    files: tuple[ChangedFile, ...]


def changes_since(repository: Any, base: str) -> Changes:
    """The files changed between the merge base of `base` and HEAD, and HEAD.

    `GM_BASE_NOT_FOUND` when `base` names no commit (in a shallow clone, fetch the base) or
    HEAD is unborn."""
    base_commit = _commit(repository, base)
    head_commit = _commit(repository, "HEAD")
    found = repository.merge_base(base_commit.id, head_commit.id)
    if found is None:
        raise _not_found(base, "shares no history with HEAD")
    start = repository.get(found)
    diff = repository.diff(start.tree, head_commit.tree, context_lines=0)
    diff.find_similar()
    files = tuple(_changed(patch) for patch in diff)
    return Changes(str(base_commit.id), str(found), str(head_commit.id), files)


def _commit(repository: Any, revision: str) -> Any:
    try:
        found = repository.revparse_single(revision)
        return found.peel(pygit2.Commit)
    except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError) as exc:
        raise _not_found(revision, "names no commit here") from exc


def _not_found(revision: str, why: str) -> GitMemoryError:
    return GitMemoryError(
        "GM_BASE_NOT_FOUND",
        f"{revision!r} {why}",
        hint="name a commit or branch both sides share, e.g. origin/main; a shallow clone "
        "needs the base fetched (actions/checkout with fetch-depth: 0)",
        details={"base": revision},
    )


_STATUS = {
    pygit2.enums.DeltaStatus.ADDED: "added",
    pygit2.enums.DeltaStatus.DELETED: "deleted",
    pygit2.enums.DeltaStatus.RENAMED: "renamed",
    pygit2.enums.DeltaStatus.COPIED: "copied",
    pygit2.enums.DeltaStatus.TYPECHANGE: "typechange",
}


def _changed(patch: Any) -> ChangedFile:
    delta = patch.delta
    status = _STATUS.get(delta.status, "modified")
    hunks = () if delta.is_binary else tuple(_hunk(hunk) for hunk in patch.hunks)
    return ChangedFile(delta.new_file.path, delta.old_file.path, status, hunks)


def _hunk(hunk: Any) -> Hunk:
    removed = "".join(line.content for line in hunk.lines if line.origin == "-")
    added = "".join(line.content for line in hunk.lines if line.origin == "+")
    # A hunk that only removes lines has no new lines; git reports the line before the
    # removal as its start, so the line now standing where the removed lines were is next.
    line = hunk.new_start if hunk.new_lines else hunk.new_start + 1
    return Hunk(max(line, 1), removed, added)
