"""Read the memory root no-follow: existing entries (ids, bytes) and the files index.json lists."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from git_memory import safefs

ENTRIES = "entries"
SCENES = "scenes"
SKILLS = "skills"


def _names(root: Path, parts: list[str], *, want_dirs: bool = False) -> list[str]:
    """Plain (non-dot) regular files, or directories, in `root/parts`; [] when absent."""
    try:
        with safefs.open_dir(root, parts) as fd:
            found = []
            for name in sorted(os.listdir(fd)):
                if name.startswith("."):
                    continue  # promotion artifacts and editor droppings
                try:
                    mode = os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode
                except FileNotFoundError:
                    continue
                if stat.S_ISDIR(mode) if want_dirs else stat.S_ISREG(mode):
                    found.append(name)
            return found
    except FileNotFoundError:
        return []


def existing_entries(root: Path, memory_root: str) -> dict[str, bytes]:
    """entry id → bytes of every `entries/<id>.md` (read no-follow)."""
    base = safefs.split_relative(memory_root)
    entries: dict[str, bytes] = {}
    for name in _names(root, [*base, ENTRIES]):
        if name.endswith(".md"):
            data = safefs.read_file_nofollow(root, f"{memory_root}/{ENTRIES}/{name}")
            if data is not None:
                entries[name[: -len(".md")]] = data
    return entries


def index_sources(root: Path, memory_root: str) -> dict[str, str]:
    """Memory-root-relative path → text of every file `index.json` is built from."""
    base = safefs.split_relative(memory_root)
    paths = [f"{ENTRIES}/{n}" for n in _names(root, [*base, ENTRIES]) if n.endswith(".md")]
    paths += [f"{SCENES}/{n}" for n in _names(root, [*base, SCENES]) if n.endswith(".md")]
    for skill in _names(root, [*base, SKILLS], want_dirs=True):
        if "SKILL.md" in _names(root, [*base, SKILLS, skill]):
            paths.append(f"{SKILLS}/{skill}/SKILL.md")
    sources: dict[str, str] = {}
    for relpath in paths:
        data = safefs.read_file_nofollow(root, f"{memory_root}/{relpath}")
        if data is not None:
            sources[relpath] = data.decode("utf-8", errors="replace")
    return sources


def write_index(root: Path, memory_root: str, data: bytes) -> bool:
    """Replace `index.json` (no-follow, atomic) when its bytes differ; True when written."""
    current = safefs.read_file_nofollow(root, f"{memory_root}/index.json")
    if current == data:
        return False
    with safefs.open_dir(root, safefs.split_relative(memory_root), create=True) as fd:
        safefs.replace_file_at(fd, "index.json", data)
    return True
