"""The promotion lint gate: every byte a plan would write passes, or there is no plan.

A promotion writes what a machine extracted from private transcripts, so besides every
blocking lint finding (absolute home paths among them, as in the pre-commit hook) it refuses
whatever the session index knows is private:
this machine's session ids, transcript paths and the homes they live under, whatever words
surround them (`claude --resume <id>` names no "session"), and this machine's home directory
wherever it is. Every promoted byte is linted, so an invisible character
(`GM_LINT_INVISIBLE_CHARACTER`) never reaches a memory file, CLAUDE.md or `context`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from git_memory.errors import GitMemoryError
from git_memory.lint.engine import KnownCommit, lint_bytes
from git_memory.lint.home import home_findings
from git_memory.lint.raw import excerpt
from git_memory.promote.render import RenderedFile
from git_memory.repo.binding import Worktree
from git_memory.repo.blobs import commit_exists
from git_memory.sessions.private import PrivateMarks, indexed_private_marks

MARK_CODES = {"session id": "GM_LINT_PROVIDER_SESSION_ID", "path": "GM_LINT_ABSOLUTE_PATH"}


def _private_findings(item: RenderedFile, marks: PrivateMarks) -> list[dict[str, Any]]:
    text = item.content.decode("utf-8", "replace")
    found = marks.found_in(text)
    if found is None:
        return []
    kind, mark = found
    offset = text.lower().index(mark)
    return [
        {
            "path": item.target_path,
            "code": MARK_CODES[kind],
            "severity": "block",
            "line": text.count("\n", 0, offset) + 1,
            "column": offset - text.rfind("\n", 0, offset),
            "excerpt": excerpt(text[offset : offset + len(mark)]),
            "message": f"this machine's {kind} (from the session index)",
        }
    ]


def lint_gate(files: Sequence[RenderedFile], worktree: Worktree) -> None:
    """Every planned byte passes lint and names nothing private, or `GM_LINT_BLOCKED`."""
    memory_root = worktree.memory_root
    marks = indexed_private_marks(worktree.state_home)
    home = os.path.expanduser("~")
    known: KnownCommit = lambda hex_id: commit_exists(worktree.repository, hex_id)  # noqa: E731
    blocked: list[dict[str, Any]] = []
    for item in files:
        relpath = item.target_path[len(memory_root) + 1 :]
        text = item.content.decode("utf-8", "replace")
        linted = lint_bytes(relpath, item.content, known)
        for finding in [*linted, *home_findings(text, home)]:
            if finding.blocks:
                blocked.append({"path": item.target_path, **finding.to_json()})
        blocked += _private_findings(item, marks)
    if blocked:
        first = blocked[0]
        raise GitMemoryError(
            "GM_LINT_BLOCKED",
            f"{first['path']}:{first['line']}:{first['column']}: {first['code']} "
            f"{first['message']}",
            hint="edit the candidate's statements so no secret or private path remains",
            details={"findings": blocked},
        )
