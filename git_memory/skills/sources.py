"""Read the worktree's skills, scenes and doctrine as recall context sources (no-follow).

Approved entries come from the approved projection in the memory state; everything else
comes straight from the memory root, parsed by the formats layer. Content digests are the
sha256 of the file bytes, the same digests `memoryContext.binding` pins.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from git_memory.assemble.sources import read_memory_files
from git_memory.contracts.canonical import sha256_hex
from git_memory.errors import FormatError, GitMemoryError
from git_memory.formats.memory_file import load_doctrine, load_scene, load_skill
from git_memory.skills.recall_context import DoctrineSource, SceneSource, SkillSource


@dataclass(frozen=True)
class ParsedMemoryFiles:
    """The non-entry memory a recall puts into `skillContext` / `memoryContext`."""

    skills: list[SkillSource]
    scenes: list[SceneSource]
    doctrine: DoctrineSource | None


def _invalid(relpath: str, exc: FormatError) -> GitMemoryError:
    where = f"{relpath}:{exc.line}" if exc.line else relpath
    return GitMemoryError(
        exc.code,
        f"{where}: {exc.message}",
        hint="run `git memory lint` and fix the memory file",
        details={"path": relpath},
    )


def _text(relpath: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _invalid(relpath, FormatError("GM_FORMAT_INVALID_UTF8", "not valid UTF-8")) from exc


def _scene(name: str, data: bytes) -> SceneSource:
    relpath = f"scenes/{name}.md"
    text = _text(relpath, data)
    try:
        scene = load_scene(relpath, text)
    except FormatError as exc:
        raise _invalid(relpath, exc) from exc
    return SceneSource(name, scene.heat, scene.summary, sha256_hex(data), text)


def _skill(name: str, data: bytes) -> SkillSource:
    relpath = f"skills/{name}/SKILL.md"
    text = _text(relpath, data)
    try:
        skill = load_skill(relpath, text)
    except FormatError as exc:
        raise _invalid(relpath, exc) from exc
    return SkillSource(name, skill.description, text, sha256_hex(data))


def parse_memory_files(root: Path, memory_root: str) -> ParsedMemoryFiles:
    """Skills, scenes and doctrine of the memory root; a malformed file is a `GM_FORMAT_*`."""
    files = read_memory_files(root, memory_root)
    doctrine = None
    if files.doctrine is not None:
        text = _text("doctrine.md", files.doctrine)
        try:
            load_doctrine("doctrine.md", text)
        except FormatError as exc:
            raise _invalid("doctrine.md", exc) from exc
        doctrine = DoctrineSource(sha256_hex(files.doctrine), text)
    return ParsedMemoryFiles(
        skills=[_skill(name, data) for name, data in sorted(files.skills.items())],
        scenes=[_scene(name, data) for name, data in sorted(files.scenes.items())],
        doctrine=doctrine,
    )
