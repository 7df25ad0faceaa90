"""Reading a store's files: regular files only, capped, never through a link out of the store.

An agent's store is another program's data, and a store inside the worktree arrives with a
checkout: a `.serena/memories` that links to `~/.ssh`, a FIFO named `MEMORY.md` or a
gigabyte topic file must not hang, fail or leak. Such a file is skipped with a diagnostic (a
code and the file's name inside its store, never its content) and the rest is read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from git_memory.agent_memory.codex import has_task_groups, split_handbook, split_registry
from git_memory.agent_memory.codex_routing import SummaryReader
from git_memory.agent_memory.items import MemoryItem, split_items
from git_memory.agent_memory.stores import FoundStore, StoreFile
from git_memory.formats.generated_block import without_generated
from git_memory.sessions.source_io import SourceRefused, open_regular

MAX_FILE_BYTES = 256 * 1024
# A store is a handful of notes; a folder of thousands is not read past this many files.
MAX_FILES = 200
# Rollout summaries a handbook names that are opened for their header, at most.
MAX_SUMMARIES = 200
ROLLOUT_SUMMARIES = "rollout_summaries"
# A Codex handbook with text but no `# Task Group:` block: a layout this reader does not know.
UNKNOWN_HANDBOOK = (
    "unknown-layout",
    "no `# Task Group:` block: not the handbook layout Codex documents; not read",
)


@dataclass(frozen=True)
class UnreadFile:
    """A file of a store that was not read, and why."""

    store: str
    file: str
    code: str
    message: str


def read_store(store: FoundStore, worktree_root: Path) -> tuple[list[MemoryItem], list[UnreadFile]]:
    """The items of every file of `store`, and a diagnostic for each file not read."""
    items: list[MemoryItem] = []
    diagnostics: list[UnreadFile] = []
    for number, file in enumerate(store.files):
        if number == MAX_FILES:
            rest = f"{len(store.files) - MAX_FILES} more file(s)"
            diagnostics.append(UnreadFile(store.spec.name, rest, "too-many-files", "not read"))
            break
        try:
            text = _read(file, worktree_root)
        except SourceRefused as refused:
            diagnostics.append(
                UnreadFile(store.spec.name, file.name, refused.code, refused.message)
            )
            continue
        if file.roots is not None and text.strip() and not has_task_groups(text):
            diagnostics.append(UnreadFile(store.spec.name, file.name, *UNKNOWN_HANDBOOK))
            continue
        items += _items_of(store.spec.name, file, text)
    return items, diagnostics


def _items_of(store: str, file: StoreFile, text: str) -> list[MemoryItem]:
    """The items of one file, cut the way its kind of file is written; the block `git memory
    assemble` generated in it is this tool's output, never an item."""
    text = without_generated(text)
    if file.roots is not None:
        summaries = _summary_reader(file.path.parent / ROLLOUT_SUMMARIES)
        return split_handbook(store, file.name, text, file.roots, summaries)
    if file.registry:
        return split_registry(store, file.name, text)
    return split_items(store, file.name, text, file.section)


def _summary_reader(folder: Path) -> SummaryReader:
    """Reads a rollout summary the handbook names (a plain name inside `folder`, at most
    MAX_SUMMARIES of them): what Codex wrote of a session, for its header."""
    budget = [MAX_SUMMARIES]

    def read(name: str) -> str | None:
        if budget[0] <= 0 or name in {".", ".."} or os.sep in name or "/" in name:
            return None
        budget[0] -= 1
        try:
            return read_text(folder / name)
        except SourceRefused:
            return None

    return read


def _read(file: StoreFile, worktree_root: Path) -> str:
    _inside_worktree(file.path, worktree_root)
    return read_text(file.path)


def read_text(path: Path) -> str:
    """A regular file's UTF-8 text, at most MAX_FILE_BYTES (SourceRefused says why not)."""
    try:
        with open_regular(str(path)) as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError as exc:
        raise SourceRefused("missing", "the file went away while it was read") from exc
    except OSError as exc:
        raise SourceRefused("unreadable", f"could not be read ({exc.strerror})") from exc
    if len(data) > MAX_FILE_BYTES:
        raise SourceRefused("too-large", f"larger than {MAX_FILE_BYTES} bytes; not read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceRefused("bad-encoding", "not UTF-8 text; not read") from exc


def _inside_worktree(path: Path, worktree_root: Path) -> None:
    """A store in the worktree came with the checkout: its folders must not lead outside."""
    if not path.is_relative_to(worktree_root):
        return
    real = Path(os.path.realpath(path.parent))
    if not real.is_relative_to(os.path.realpath(worktree_root)):
        raise SourceRefused("outside-store", "its folder links outside the worktree; not read")
