"""Recording the text of `context`, `status` and `list` for the console script's fast path.

A command takes the key of what it is about to read (`answer_before`) before reading
anything, and records its printed text afterwards (`record_answer_after`) only when the key
and the state files it read are still the same: an answer made while something changed under
it is never recorded, the next run makes it again (assemble/answers.py).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from git_memory.assemble.answers import answer_settings, record_answer, state_signatures
from git_memory.errors import GitMemoryError
from git_memory.formats.controls import escape_controls
from git_memory.repo.answer_key import worktree_key

if TYPE_CHECKING:
    from git_memory.repo.answer_key import WorktreeKey
    from git_memory.repo.binding import Worktree


@dataclass(frozen=True)
class AnswerBefore:
    """The key and the state-file signatures taken before a command read anything."""

    name: str
    key: WorktreeKey
    state_files: tuple[str, ...]
    state: dict[str, Any]


def answer_before(
    worktree: Worktree, name: str, state_files: tuple[str, ...] = ()
) -> AnswerBefore | None:
    """What answer `name` is about to be made from; None when it cannot be keyed."""
    state = state_signatures(worktree.state_home, state_files)
    key = worktree_key(str(worktree.root), answer_settings(name))
    return None if key is None else AnswerBefore(name, key, state_files, state)


def record_answer_after(
    worktree: Worktree, before: AnswerBefore | None, text: str, watched: list[str] | None
) -> None:
    """Record `text` when nothing it was made from changed since `before`; `watched` are the
    worktree paths the freshness check looked at (None: unknown, nothing is recorded)."""
    if before is None or watched is None:
        return
    after = worktree_key(str(worktree.root), answer_settings(before.name))
    if after is None or after.facts != before.key.facts:
        return
    if state_signatures(worktree.state_home, before.state_files) != before.state:
        return
    # Recorded as printed (control characters escaped, as the CLI prints every text), so the
    # fast path writes it out without loading the escaping.
    text = escape_controls(text)
    with contextlib.suppress(OSError, GitMemoryError):  # unrecorded: the next run answers
        record_answer(
            worktree.state_home, before.key, before.name, text, watched, state=before.state
        )
