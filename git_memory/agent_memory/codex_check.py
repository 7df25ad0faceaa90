"""What `doctor` says of Codex's memories folder: whether each entry is one this reader knows.

An entry no row of `codex_layout.py` names, a handbook with text but no `# Task Group:` block,
or a `memory_summary.md` whose first line is not `v1` (the version line the consolidation
template requires) is a layout this reader does not know: doctor names it, and harvest
reads nothing from it rather than guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from git_memory.agent_memory.codex import HANDBOOK, has_task_groups
from git_memory.agent_memory.codex_layout import unknown_entries, worktree_buckets
from git_memory.agent_memory.read import read_text
from git_memory.agent_memory.stores import codex_memories, codex_roots
from git_memory.sessions.source_io import SourceRefused

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree

SUMMARY = "memory_summary.md"
SUMMARY_VERSION = "v1"


@dataclass(frozen=True)
class CodexLayout:
    """The memories folder, this worktree's legacy buckets in it, and what is not known."""

    folder: Path
    buckets: list[str]
    unknown: list[str]


def codex_layout(worktree: Worktree) -> CodexLayout | None:
    """What the memories folder holds for this worktree (None when there is no folder)."""
    folder = codex_memories()
    if not folder.is_dir():
        return None
    buckets = worktree_buckets(worktree, folder, codex_roots(worktree))
    return CodexLayout(folder, buckets, unknown_entries(folder, buckets) + _unknown_text(folder))


def _unknown_text(folder: Path) -> list[str]:
    """Known files whose text is not in a shape Codex documents."""
    found = []
    handbook = _text(folder / HANDBOOK)
    if handbook.strip() and not has_task_groups(handbook):
        found.append(f"{HANDBOOK} (no `# Task Group:` block)")
    summary = _text(folder / SUMMARY)
    if summary and summary.split("\n", 1)[0].rstrip("\r") != SUMMARY_VERSION:
        found.append(f"{SUMMARY} (its first line is not `{SUMMARY_VERSION}`)")
    return found


def _text(path: Path) -> str:
    """The file's text; empty when absent or not readable (harvest reports those itself)."""
    try:
        return read_text(path)
    except SourceRefused:
        return ""
