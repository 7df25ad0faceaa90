"""Read the approved memory files assemble needs (doctrine, scenes, skills), no-follow.

Raw bytes only; parsing is the formats layer's job. Dot-files are skipped everywhere: they
are transient artifacts of an interrupted promotion, never memory.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass
from pathlib import Path

from git_memory import safefs
from git_memory.errors import GitMemoryError
from git_memory.formats.slug import is_name
from git_memory.repo import memory_tree

MAX_SKILL_DIRS = 256


@dataclass(frozen=True)
class MemoryFiles:
    """Bytes of the approved memory files, keyed by scene / skill name; `skipped` says which
    skill folders were left out and why."""

    doctrine: bytes | None
    scenes: dict[str, bytes]
    skills: dict[str, bytes]
    skipped: tuple[str, ...] = ()


def _listing(root: Path, parts: list[str]) -> tuple[list[str], list[str]]:
    """(regular files, directories) directly inside `root/parts`, dot-names skipped; a
    symbolic link is refused."""
    listing = memory_tree.list_dir(root, parts)
    memory_tree.refuse_links(listing, parts)
    return [i.name for i in listing if i.is_file], [i.name for i in listing if i.is_dir]


def _read(root: Path, relpath: str) -> bytes | None:
    try:
        return safefs.read_file_nofollow(root, relpath)
    except OSError as exc:
        if exc.errno == errno.ENOTDIR:
            return None
        raise


def read_scenes(root: Path, memory_root: str) -> dict[str, bytes]:
    """`scenes/<name>.md` files by name."""
    files, _ = _listing(root, [*safefs.split_relative(memory_root), "scenes"])
    scenes: dict[str, bytes] = {}
    for name in files:
        if name.endswith(".md"):
            data = _read(root, f"{memory_root}/scenes/{name}")
            if data is not None:
                scenes[name.removesuffix(".md")] = data
    return scenes


def read_skills(root: Path, memory_root: str, skipped: list[str] | None = None) -> dict[str, bytes]:
    """`skills/<name>/SKILL.md` by name; more than 256 skill directories is refused. A folder
    whose name is not a skill name is left out (noted in `skipped`): one bad folder must not
    turn off the team's whole block."""
    _, dirs = _listing(root, [*safefs.split_relative(memory_root), "skills"])
    if len(dirs) > MAX_SKILL_DIRS:
        raise GitMemoryError(
            "GM_TOO_MANY_SKILLS",
            f"{len(dirs)} skill directories exist; at most {MAX_SKILL_DIRS} are supported",
            hint="merge or remove skills in the memory root",
            details={"count": len(dirs), "max": MAX_SKILL_DIRS},
        )
    skills: dict[str, bytes] = {}
    for name in dirs:
        if not is_name(name):
            if skipped is not None:
                shown = name.encode("unicode_escape").decode("ascii")[:80]
                skipped.append(
                    f"skipped skills/{shown}/: not a skill name (lowercase letters, digits and"
                    " hyphens, at most 64)"
                )
            continue
        data = _read(root, f"{memory_root}/skills/{name}/SKILL.md")
        if data is not None:
            skills[name] = data
    return skills


def read_memory_files(root: Path, memory_root: str) -> MemoryFiles:
    """Doctrine, scenes and skills of the memory root (absent pieces are empty)."""
    skipped: list[str] = []
    return MemoryFiles(
        doctrine=_read(root, f"{memory_root}/doctrine.md"),
        scenes=read_scenes(root, memory_root),
        skills=read_skills(root, memory_root, skipped),
        skipped=tuple(skipped),
    )
