"""Directives in memory no one reviewed here: what `verify` flags before an agent reads it.

A memory file written by a promotion applied on this machine was confirmed by a person,
a directive in it explicitly (`store.reviewed`). Any other memory file — a teammate's entry
brought by `git pull`, a file written by hand — is read with the directive rules
(`lint.directives`), and each finding is reported with its file and line. A flag does not
make memory stale: it asks a person to read the text before the next `assemble` puts it in
every agent's context.
"""

from __future__ import annotations

import hashlib
import os
from typing import TYPE_CHECKING

from git_memory.contracts.lifecycle import VerifyDirective
from git_memory.lint.directives import lint_directives
from git_memory.repo.memory_tree import worktree_files
from git_memory.store.reviewed import reviewed_digests

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree


def unreviewed_directives(worktree: Worktree) -> list[VerifyDirective]:
    """Every directive in a memory file whose bytes no promotion applied here wrote."""
    reviewed: frozenset[str] | None = None
    flagged: list[VerifyDirective] = []
    for memory_file in worktree_files(worktree.root, worktree.memory_root):
        if memory_file.data is None or not memory_file.relpath.endswith(".md"):
            continue
        text = memory_file.data.decode("utf-8", "replace")
        found = lint_directives(text)
        if not found:
            continue
        if reviewed is None:
            reviewed = reviewed_digests(os.fspath(worktree.state_home))
        if hashlib.sha256(memory_file.data).hexdigest() in reviewed:
            continue
        path = memory_file.worktree_path(worktree.memory_root)
        flagged += [
            VerifyDirective(
                path=path, line=f.line, code=f.code, message=f.message, excerpt=f.excerpt
            )
            for f in found
        ]
    return flagged


def directive_lines(directives: list[VerifyDirective]) -> list[str]:
    """The text lines that flag them, then what to do."""
    if not directives:
        return []
    lines = [f"{d.path}:{d.line}: directive {d.code}: {d.message}: {d.excerpt}" for d in directives]
    lines.append(
        f"{len(directives)} directive(s) no one reviewed on this machine (by a pull or by hand):"
        " read each before the next `git memory assemble` puts it in every agent's context;"
        " retire the entry if it is not the team's (git memory retire ID --reason TEXT)"
    )
    return lines
