"""From a memory snapshot to a rendered block: lint gate, parsing, budget, cache.

Shared by `assemble` (the block written between the markers) and `context` (the same
rendering printed). When the snapshot's inputs key equals the cached one, the cached rendering
is returned without linting, parsing or loading a single entry; the key covers every byte the
rendering is made from.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from git_memory.assemble.cache import load_cached, save_cached
from git_memory.assemble.known import split_known
from git_memory.assemble.render import (
    BlockInput,
    Provider,
    Rendered,
    SceneLine,
    SkillLine,
    render_block,
    render_context,
)
from git_memory.assemble.snapshot import MemorySnapshot
from git_memory.assemble.sources import MemoryFiles
from git_memory.contracts.canonical import sha256_hex
from git_memory.errors import GitMemoryError
from git_memory.formats.memory_file import load_doctrine, load_scene, load_skill
from git_memory.lint.engine import lint_bytes

MAX_MATCHING = 50
Kind = Literal["block", "context"]


@dataclass(frozen=True)
class RenderSettings:
    """What to render: for whom, within which budget, for which query (context only)."""

    kind: Kind
    provider: Provider
    memory_root: str
    budget: int
    query: str | None = None
    cache_path: Path | None = None  # None: neither read nor write a cache
    scope: str | None = None  # a scoped block's directory; None: the root block
    known: str = ""  # what the agent reads anyway (`known.known_text`); root block only


def lint_sources(files: MemoryFiles) -> None:
    """Every file that feeds the output must pass the lint gate (format included)."""
    named: list[tuple[str, bytes]] = []
    if files.doctrine is not None:
        named.append(("doctrine.md", files.doctrine))
    named += [(f"scenes/{name}.md", data) for name, data in sorted(files.scenes.items())]
    named += [(f"skills/{name}/SKILL.md", data) for name, data in sorted(files.skills.items())]
    problems = []
    for relpath, data in named:
        findings = [f for f in lint_bytes(relpath, data) if f.blocks]
        problems += [
            {"path": relpath, "line": f.line, "code": f.code, "message": f.message}
            for f in findings
        ]
    if problems:
        first = problems[0]
        raise GitMemoryError(
            "GM_LINT_BLOCKED",
            f"{len(problems)} blocking finding(s) in memory files, first "
            f"{first['path']}:{first['line']}: {first['message']} [{first['code']}]",
            hint="run `git memory lint` and fix the memory files; nothing was written",
            details={"findings": problems},
        )


def parse_sources(files: MemoryFiles) -> tuple[str | None, list[SceneLine], list[SkillLine]]:
    """The doctrine text, scene lines and skill lines of the memory files."""
    doctrine = (
        load_doctrine("doctrine.md", files.doctrine.decode()).text if files.doctrine else None
    )
    if doctrine is not None and not doctrine.strip():
        doctrine = None
    scenes = []
    for name, data in sorted(files.scenes.items()):
        scene = load_scene(f"scenes/{name}.md", data.decode())
        scenes.append(SceneLine(name=name, heat=scene.heat, summary=scene.summary))
    skills = []
    for name, data in sorted(files.skills.items()):
        skill = load_skill(f"skills/{name}/SKILL.md", data.decode())
        skills.append(SkillLine(name=name, description=skill.description))
    return doctrine, scenes, skills


def block_input(snapshot: MemorySnapshot, settings: RenderSettings) -> BlockInput:
    """Lint-gate and parse the files, load the fresh entries and (with a query) the matches.

    A scoped block holds only the entries of its directory (no doctrine, scenes or skills, so
    those files are neither linted nor parsed for it); the root block the rest, and it counts
    every stale entry held back (`git memory verify` lists them all)."""
    doctrine: str | None = None
    scenes: list[SceneLine] = []
    skills: list[SkillLine] = []
    if settings.scope is None:
        lint_sources(snapshot.files)
        doctrine, scenes, skills = parse_sources(snapshot.files)
    entries, held_back = snapshot.fresh()
    entries = [entry for entry in entries if entry.scope == settings.scope]
    known: list[str] = []
    if settings.scope is None:
        entries, known = split_known(entries, settings.known)
    else:
        scope_of = {entry.id: entry.scope for entry in snapshot.approved()}
        held_back = [i for i in held_back if scope_of.get(i) == settings.scope]
    query = (settings.query or "").strip() or None
    matching = snapshot.matching(query, MAX_MATCHING) if query else []
    return BlockInput(
        provider=settings.provider,
        memory_root=settings.memory_root,
        budget=settings.budget,
        doctrine=doctrine,
        scenes=scenes,
        skills=skills,
        entries=entries,
        held_back=held_back,
        query=query,
        matching=matching,
        scope=settings.scope,
        known=known,
    )


def render(snapshot: MemorySnapshot, settings: RenderSettings, *, save: bool) -> Rendered:
    """The rendering for `settings`, from the cache when the inputs are unchanged.

    `save` records a fresh rendering in the cache (only from a complete projection).
    """
    key = snapshot.inputs_key(
        kind=settings.kind,
        provider=settings.provider,
        memoryRoot=settings.memory_root,
        budget=settings.budget,
        query=settings.query,
        scope=settings.scope,
        known=sha256_hex(settings.known.encode("utf-8")) if settings.known else None,
    )
    if settings.cache_path is not None:
        cached = load_cached(settings.cache_path, key)
        if cached is not None:
            return cached
    inp = block_input(snapshot, settings)
    rendered = render_block(inp) if settings.kind == "block" else render_context(inp)
    if save and settings.cache_path is not None and snapshot.coverage == "complete":
        save_cached(settings.cache_path, key, rendered)
    return rendered
