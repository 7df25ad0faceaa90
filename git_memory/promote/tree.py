"""Read the memory root for prepare and write its index: through the one no-follow reader of
`repo/memory_tree.py`, so promote sees the tree exactly as lint and reindex do."""

from __future__ import annotations

from pathlib import Path

from git_memory import safefs
from git_memory.repo import memory_tree

ENTRIES = "entries"


def existing_entries(root: Path, memory_root: str) -> dict[str, bytes]:
    """entry id → bytes of every `entries/<id>.md` (read no-follow). A symbolic link among
    them is refused (`GM_SYMLINK_REFUSED`): prepare never plans around a file it cannot see."""
    parts = [*safefs.split_relative(memory_root), ENTRIES]
    listing = memory_tree.list_dir(root, parts)
    memory_tree.refuse_links(listing, parts)
    entries: dict[str, bytes] = {}
    for item in listing:
        if item.is_file and item.name.endswith(".md"):
            data = safefs.read_file_nofollow(root, f"{memory_root}/{ENTRIES}/{item.name}")
            if data is not None:
                entries[item.name[: -len(".md")]] = data
    return entries


def expected_index(root: Path, memory_root: str) -> bytes:
    """The `index.json` bytes the memory root calls for, built exactly as `git memory
    reindex` builds them (a symbolic link is left out of the index; lint blocks it)."""
    built, _current = memory_tree.expected_index(memory_tree.worktree_files(root, memory_root))
    data: bytes = built.data
    return data


def write_index(root: Path, memory_root: str, data: bytes) -> bool:
    """Replace `index.json` (no-follow, atomic) when its bytes differ; True when written."""
    current = safefs.read_file_nofollow(root, f"{memory_root}/index.json")
    if current == data:
        return False
    with safefs.open_dir(root, safefs.split_relative(memory_root), create=True) as fd:
        safefs.replace_file_at(fd, "index.json", data)
    return True
