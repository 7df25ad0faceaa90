"""Where each agent keeps its own memory for a worktree, resolved the way the agent does.

- Claude Code auto memory: `*.md` in the folder an `autoMemoryDirectory` setting names, else
  in `<CLAUDE_CONFIG_DIR or ~/.claude>/projects/<slug>/memory/`, the slug naming the
  repository's main worktree, so every worktree of a repository shares one store
  (`claude.py`).
- Claude Code subagent memory: `.claude/agent-memory/<agent>/` (project scope, committed)
  and `.claude/agent-memory-local/<agent>/` (local scope) in the worktree.
- `CLAUDE.local.md` in the worktree; `AGENTS.override.md` and `.github/copilot-instructions.md`
  when git does not track them (a tracked one is the team's file, already shared).
- Gemini CLI: the `## Gemini Added Memories` section of `<GEMINI_CLI_HOME>/.gemini/GEMINI.md`
  (or `~/.gemini/GEMINI.md`) and of the worktree's `GEMINI.md`.
- Gemini CLI's skill inbox: `SKILL.md` of each skill Auto Memory drafted into
  `<home>/tmp/<project>/memory/skills/<skill>/`, `<project>` being the short name
  `projects.json` gives the worktree (or the `sha256` of its path, the older layout).
- Serena: `.serena/memories/*.md` in the worktree.
- Codex: the handbook `<CODEX_HOME or ~/.codex>/memories/MEMORY.md`, only its blocks whose
  working directory lies in this repository (`codex.py`), and the registries of the legacy
  per-directory buckets of the repository's directories (`codex_layout.py`).

A file holding nothing but the block `git memory assemble` generated (a `GEMINI.md` or an
untracked `copilot-instructions.md` it created) is this tool's output, not an agent's store,
and is neither read nor counted.

`memory.sources` (the comma list that also picks transcript agents) turns stores on: an
agent's name turns on all its stores unless some of them are named, then only those.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from git_memory.agent_memory.claude import configured_directory, project_slug
from git_memory.agent_memory.codex import HANDBOOK
from git_memory.agent_memory.codex_layout import bucket_files, worktree_buckets
from git_memory.formats.generated_block import only_generated
from git_memory.sessions.providers import claude_code, codex, gemini_cli
from git_memory.sessions.providers.base import MEMORY_STORES
from git_memory.sessions.source_io import SourceRefused, read_regular

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree

GEMINI_SECTION = "Gemini Added Memories"
# A generated block within the budget assemble allows is far smaller; a larger file is not ours.
GENERATED_MAX_BYTES = 1024 * 1024


@dataclass(frozen=True)
class StoreSpec:
    """One kind of store: its name (as `memory.sources` and evidence name it) and agent."""

    name: str
    agent: str
    label: str


@dataclass(frozen=True)
class StoreFile:
    """One file of a found store: its path, its name inside the store, the section read;
    `roots` makes it a Codex handbook, read only for the blocks applying to those folders,
    `registry` a legacy Codex registry of one of them (`codex_layout.py`)."""

    path: Path
    name: str
    section: str | None = None
    roots: tuple[Path, ...] | None = None
    registry: bool = False


@dataclass(frozen=True)
class FoundStore:
    """A store that exists for this worktree: its root and the files to read in it."""

    spec: StoreSpec
    root: Path
    files: tuple[StoreFile, ...]


LABELS = {
    "claude-auto-memory": "Claude Code auto memory",
    "claude-agent-memory": "Claude Code subagent memory",
    "claude-local": "CLAUDE.local.md",
    "agents-override": "untracked AGENTS.override.md",
    "gemini-memories": "Gemini CLI saved memories",
    "serena-memories": "Serena memories",
    "codex-memories": "Codex memories",
    "gemini-skill-inbox": "Gemini CLI skill inbox",
    "copilot-instructions": "untracked .github/copilot-instructions.md",
}
STORES: tuple[StoreSpec, ...] = tuple(
    StoreSpec(name, agent, LABELS[name]) for name, agent in MEMORY_STORES
)
STORE_NAMES = tuple(store.name for store in STORES)
AGENTS = tuple(dict.fromkeys(store.agent for store in STORES))


def enabled_stores(value: str | None) -> list[StoreSpec]:
    """The stores a `memory.sources` value turns on (unset or empty: all)."""
    if value is None or not value.strip():
        return list(STORES)
    wanted = {part.strip().lower() for part in value.split(",") if part.strip()}
    named = {store.agent for store in STORES if store.name in wanted}
    return [
        store
        for store in STORES
        if store.name in wanted or (store.agent in wanted and store.agent not in named)
    ]


def main_root(worktree: Worktree) -> Path:
    """The main worktree's root (the common git dir's parent for a linked worktree)."""
    common = worktree.common_dir
    return common.parent if common.name == ".git" else worktree.root


def locate(worktree: Worktree, specs: list[StoreSpec]) -> list[FoundStore]:
    """Every enabled store that exists for `worktree`."""
    found = []
    for spec in specs:
        store = _LOCATORS[spec.name](spec, worktree)
        if store is not None and store.files:
            found.append(store)
    return found


def is_tracked(worktree: Worktree, relpath: str) -> bool:
    """Whether git's index holds `relpath` (read afresh: one lookup, not a listing)."""
    index = worktree.repository.index
    index.read(False)
    return relpath in index


def _markdown_in(directory: Path, prefix: str = "") -> tuple[StoreFile, ...]:
    """The `*.md` entries directly in `directory` (links and specials are the reader's)."""
    try:
        names = sorted(entry.name for entry in directory.iterdir() if entry.name.endswith(".md"))
    except OSError:
        return ()
    return tuple(StoreFile(directory / name, prefix + name) for name in names)


def _claude_auto(spec: StoreSpec, worktree: Worktree) -> FoundStore | None:
    config = claude_code.PROVIDER_INFO.home()
    local = ".claude/settings.local.json"
    personal = None if is_tracked(worktree, local) else worktree.root / local
    root = configured_directory(config, personal) or (
        config / "projects" / project_slug(main_root(worktree)) / "memory"
    )
    return FoundStore(spec, root, _markdown_in(root))


def _claude_agents(spec: StoreSpec, worktree: Worktree) -> FoundStore | None:
    root = worktree.root / ".claude"
    files: list[StoreFile] = []
    for scope in ("agent-memory", "agent-memory-local"):
        try:
            agents = sorted(p.name for p in (root / scope).iterdir() if p.is_dir())
        except OSError:
            continue
        for agent in agents:
            files += _markdown_in(root / scope / agent, f"{scope}/{agent}/")
    return FoundStore(spec, root, tuple(files))


def written_by_assemble(path: Path) -> bool:
    """Whether `path` holds only the block `git memory assemble` generates (by its markers).
    A file that cannot be read is left to the reader, which says why."""
    try:
        data = read_regular(str(path), GENERATED_MAX_BYTES)
    except (OSError, SourceRefused):
        return False
    if len(data) > GENERATED_MAX_BYTES:
        return False
    return only_generated(data.decode("utf-8", "replace"))


def _present(path: Path) -> bool:
    """Whether an agent's file is there (a link too: the reader refuses it) and not ours."""
    return (path.exists() or path.is_symlink()) and not written_by_assemble(path)


def _single(spec: StoreSpec, worktree: Worktree, name: str) -> FoundStore:
    path = worktree.root / name
    present = _present(path)
    return FoundStore(spec, worktree.root, (StoreFile(path, name),) if present else ())


def _claude_local(spec: StoreSpec, worktree: Worktree) -> FoundStore | None:
    return _single(spec, worktree, "CLAUDE.local.md")


def _untracked(spec: StoreSpec, worktree: Worktree, name: str) -> FoundStore | None:
    # A tracked instruction file is the team's own, already reviewed through git.
    return None if is_tracked(worktree, name) else _single(spec, worktree, name)


def _override(spec: StoreSpec, worktree: Worktree) -> FoundStore | None:
    return _untracked(spec, worktree, "AGENTS.override.md")


def _copilot(spec: StoreSpec, worktree: Worktree) -> FoundStore | None:
    return _untracked(spec, worktree, ".github/copilot-instructions.md")


def _gemini(spec: StoreSpec, worktree: Worktree) -> FoundStore | None:
    places = (
        (gemini_cli.home() / "GEMINI.md", "user GEMINI.md"),
        (worktree.root / "GEMINI.md", "GEMINI.md"),
    )
    files = [StoreFile(path, name, GEMINI_SECTION) for path, name in places if _present(path)]
    return FoundStore(spec, worktree.root, tuple(files))


def _gemini_inbox(spec: StoreSpec, worktree: Worktree) -> FoundStore | None:
    tmp = gemini_cli.home() / "tmp"
    names = gemini_cli.registered_projects(str(gemini_cli.home()))
    for root in dict.fromkeys((str(worktree.root), str(main_root(worktree)))):
        project = names.get(root) or hashlib.sha256(root.encode()).hexdigest()
        inbox = tmp / project / "memory" / "skills"
        if inbox.is_dir():
            return FoundStore(spec, inbox, _skills_in(inbox))
    return None


def _skills_in(inbox: Path) -> tuple[StoreFile, ...]:
    """`<skill>/SKILL.md` of every drafted skill. A skill folder that is a link stands for
    its file, so the reader refuses it; `<skill>.patch` proposals are not skills."""
    try:
        entries = sorted(inbox.iterdir())
    except OSError:
        return ()
    files = []
    for entry in entries:
        name = f"{entry.name}/SKILL.md"
        skill = entry / "SKILL.md"
        if entry.is_symlink():
            files.append(StoreFile(entry, name))
        elif entry.is_dir() and (skill.exists() or skill.is_symlink()):
            files.append(StoreFile(skill, name))
    return tuple(files)


def _serena(spec: StoreSpec, worktree: Worktree) -> FoundStore | None:
    root = worktree.root / ".serena" / "memories"
    return FoundStore(spec, root, _markdown_in(root))


def codex_memories() -> Path:
    """Codex's memories folder, `<CODEX_HOME or ~/.codex>/memories`."""
    return codex.PROVIDER_INFO.home() / "memories"


def codex_roots(worktree: Worktree) -> tuple[Path, ...]:
    """The folders whose Codex memories are this worktree's: the main worktree and this one,
    each as given and as resolved (Codex records the directory as it saw it, and names a
    legacy bucket after the resolved one)."""
    folders = (main_root(worktree), worktree.root)
    return tuple(dict.fromkeys([*folders, *(Path(os.path.realpath(f)) for f in folders)]))


def _codex(spec: StoreSpec, worktree: Worktree) -> FoundStore | None:
    root = codex_memories()
    if not root.is_dir():
        return None
    roots = codex_roots(worktree)
    files = [
        StoreFile(path, name, registry=True)
        for path, name in bucket_files(root, worktree_buckets(worktree, root, roots))
    ]
    path = root / HANDBOOK
    if path.exists() or path.is_symlink():
        files.insert(0, StoreFile(path, HANDBOOK, roots=roots))
    return FoundStore(spec, root, tuple(files))


_LOCATORS = {
    "claude-auto-memory": _claude_auto,
    "claude-agent-memory": _claude_agents,
    "claude-local": _claude_local,
    "agents-override": _override,
    "gemini-memories": _gemini,
    "serena-memories": _serena,
    "codex-memories": _codex,
    "gemini-skill-inbox": _gemini_inbox,
    "copilot-instructions": _copilot,
}
