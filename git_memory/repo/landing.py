"""When each entry's current text landed on the current branch.

One walk of HEAD's first-parent history, oldest first: a commit whose entries directory
differs from its first parent's adds the names its parent lacked, and moves the landing of
a name whose text (the body, not the frontmatter a verify or review rewrites) changed: the
sessions before an edit read another text. Following first parents dates an entry merged
from a side branch at the merge, when it reached this branch.

Rewritten history (a rebase, a squash, an amend) gives a landing commit a commit time long
after its author time. Its landing is then looked for by content: the oldest commit that a
branch or HEAD held before the rewrite (their reflogs) whose file has the same text; failing
that (the reflog expired, a fresh clone), the commit's author time, when the text was
written. Either way the landing says how it was found.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from typing import Any, Literal

import pygit2

from git_memory.errors import FormatError
from git_memory.formats.entry import split_frontmatter

# A commit time this long after the author time means the commit was made again.
REWRITTEN_AFTER = 3600

Found = Literal["commit", "content", "author date"]


@dataclass(frozen=True)
class Landing:
    """The commit that introduced an entry's current text and its time (UTC seconds);
    `first_time` the first landing of the file when an edit moved it since; `found` how the
    time was found: the commit's time, an older commit with the same text from before the
    history was rewritten, or the rewritten commit's author time."""

    commit: str
    time: int
    first_time: int | None = None
    found: Found = "commit"


def entry_landings(repository: Any, entries_dir: str) -> dict[str, Landing]:
    """File name (`<id>.md`) → its landing on HEAD's first-parent chain; empty on an
    unborn branch."""
    walked = first_parent_walk(repository)
    if walked is None:
        return {}
    head, walker = walked
    found: dict[str, Landing] = {}
    rewritten_commits: set[str] = set()
    # The blob of each name's current text; its text is read only when a later blob differs
    # (most entries are never edited).
    blobs: dict[str, Any] = {}
    before: Any = None
    for commit in walker:
        tree = _subtree(commit.tree, entries_dir)
        if tree is not None and (before is None or tree.id != before.id):
            for item in tree:
                known = blobs.get(item.name)
                if known == item.id:
                    continue
                if known is not None and _text(repository, known) == _text(repository, item.id):
                    continue  # the frontmatter alone changed
                blobs[item.name] = item.id
                if _rewritten(commit):
                    rewritten_commits.add(str(commit.id))
                first = found.get(item.name)
                found[item.name] = Landing(
                    str(commit.id),
                    int(commit.commit_time),
                    None if first is None else (first.first_time or first.time),
                )
        before = tree
    rewritten = {
        name: landing for name, landing in found.items() if landing.commit in rewritten_commits
    }
    if rewritten:
        texts = {name: _text(repository, blobs[name]) for name in rewritten}
        found.update(_redated(repository, head, entries_dir, rewritten, texts))
    return found


def first_parent_walk(repository: Any) -> tuple[Any, Any] | None:
    """HEAD's target and a walk of its first-parent history, oldest first; None on an
    unborn branch."""
    try:
        head = repository.head.target
    except (pygit2.GitError, KeyError, ValueError):
        return None
    walker = repository.walk(
        head, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.REVERSE
    )
    walker.simplify_first_parent()
    return head, walker


def _rewritten(commit: Any) -> bool:
    return int(commit.commit_time) - int(commit.author.time) > REWRITTEN_AFTER


def _redated(
    repository: Any,
    head: Any,
    entries_dir: str,
    landings: dict[str, Landing],
    texts: dict[str, str],
) -> dict[str, Landing]:
    """The landings of rewritten commits, by content where the old commits are still known,
    else by author time."""
    oldest: dict[str, Any] = {}
    for commit in _replaced_commits(repository, head):
        tree = _subtree(commit.tree, entries_dir)
        if tree is None:
            continue
        for name in landings:
            try:
                item = tree[name]
            except KeyError:
                continue
            if _text(repository, item.id) != texts[name]:
                continue
            if name not in oldest or commit.commit_time < oldest[name].commit_time:
                oldest[name] = commit
    moved: dict[str, Landing] = {}
    for name, landing in landings.items():
        old = oldest.get(name)
        if old is not None and int(old.commit_time) < landing.time:
            moved[name] = replace(landing, time=int(old.commit_time), found="content")
        else:
            author = int(repository.get(landing.commit).author.time)
            moved[name] = replace(landing, time=author, found="author date")
    return moved


def _replaced_commits(repository: Any, head: Any) -> list[Any]:
    """The commits that HEAD or a local branch pointed at before (their reflogs), and their
    ancestors, that HEAD's history no longer holds."""
    tips: set[Any] = set()
    for name in ["HEAD", *repository.branches.local]:
        try:
            reference = repository.references[name if name == "HEAD" else f"refs/heads/{name}"]
            for entry in reference.log():
                tips.update(oid for oid in (entry.oid_old, entry.oid_new) if oid.raw != bytes(20))
        except (KeyError, ValueError, pygit2.GitError):
            continue
    if not tips:
        return []
    walker = repository.walk(head, pygit2.enums.SortMode.NONE)
    walker.hide(head)
    for tip in tips:
        try:
            walker.push(tip)
        except (KeyError, ValueError, pygit2.GitError):
            continue  # pruned since
    return list(walker)


def _text(repository: Any, blob_id: Any) -> str:
    """An entry file's body, spaces collapsed (the frontmatter apart)."""
    raw = repository[blob_id].data.decode("utf-8", "replace")
    with contextlib.suppress(FormatError):
        raw = split_frontmatter(raw)[1]
    return " ".join(raw.split())


def _subtree(tree: Any, path: str) -> Any:
    try:
        item = tree[path]
    except KeyError:
        return None
    return item if item.type == pygit2.enums.ObjectType.TREE else None
