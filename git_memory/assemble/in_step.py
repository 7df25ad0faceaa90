"""Whether the agents' files are in step with approved memory (docs/guide-context.md, "In
step").

An agent's file falls behind when approved memory changes after it was assembled: a promote
or retire, a `git pull` that brings a teammate's entries, an entry edited by hand. The files
that matter are the configured agents' files that already hold the generated block (assemble
wrote them before; the others were never asked for). A file is behind when assemble, run now,
would change it or its scoped files or skill projections; the rendering is cached by its
inputs, so an unchanged memory costs one read per file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from git_memory.assemble.agent_files import read_agent_file
from git_memory.assemble.cache import cache_path
from git_memory.assemble.config import assemble_budget, assemble_targets
from git_memory.assemble.projection import manifest_path
from git_memory.assemble.render import TARGET_FILES, Provider
from git_memory.assemble.run import AssembleInputs, plan_assembly
from git_memory.assemble.scoped import record_path
from git_memory.errors import GitMemoryError
from git_memory.formats.generated_block import holds_block

if TYPE_CHECKING:
    from git_memory.assemble.snapshot import MemorySnapshot
    from git_memory.repo.binding import Worktree

# What to run when files are behind.
UPDATE_COMMAND = "git memory assemble"


def assemble_inputs(worktree: Worktree, provider: Provider, budget: int) -> AssembleInputs:
    """Where assemble writes and keeps its records for `provider` in this worktree."""
    key = worktree.binding().worktree_key
    return AssembleInputs(
        root=worktree.root,
        memory_root=worktree.memory_root,
        budget=budget,
        manifest_path=manifest_path(worktree.state_home, provider, key),
        cache_path=cache_path(worktree.state_home, provider, key),
        scoped_record=record_path(worktree.state_home, provider, key),
    )


def assembled_providers(worktree: Worktree) -> list[Provider]:
    """The configured agents whose file holds the generated block, one per file."""
    chosen: dict[str, Provider] = {}
    for provider in assemble_targets(worktree):
        path = TARGET_FILES[provider]
        if path in chosen:
            continue
        try:
            data = read_agent_file(worktree.root, path)
        except GitMemoryError:
            continue  # assemble itself says what is wrong with the file
        if data is not None and holds_block(data):
            chosen[path] = provider
    return list(chosen.values())


def assembled_files(worktree: Worktree) -> list[str]:
    """The files of `assembled_providers`."""
    return [TARGET_FILES[provider] for provider in assembled_providers(worktree)]


def agents_in_plan(worktree: Worktree) -> list[str]:
    """The agents' files a promotion plan made now brings up to date once it is applied."""
    return assembled_files(worktree)


def files_behind(
    worktree: Worktree, snapshot: MemorySnapshot, providers: list[Provider] | None = None
) -> list[str]:
    """The assembled agents' files (of `providers`, default all of them) that assemble would
    change now. Nothing is written or cached."""
    budget = assemble_budget(worktree)
    behind = []
    for provider in assembled_providers(worktree) if providers is None else providers:
        try:
            plan = plan_assembly(assemble_inputs(worktree, provider, budget), provider, snapshot)
        except GitMemoryError:
            continue  # a conflict or a refused file: assemble reports it when run
        scoped = any(s.action != "unchanged" for s in plan.scoped)
        if plan.splice.action != "unchanged" or plan.projection.changes or scoped:
            behind.append(plan.target)
    return behind


def provider_behind(worktree: Worktree, snapshot: MemorySnapshot, provider: Provider) -> list[str]:
    """`[its file]` when the file `provider` reads holds the block and is behind, else []."""
    try:
        data = read_agent_file(worktree.root, TARGET_FILES[provider])
    except GitMemoryError:
        return []
    if data is None or not holds_block(data):
        return []
    return files_behind(worktree, snapshot, [provider])


def behind_note(files: list[str]) -> str:
    """What status, doctor and context say about files that are behind."""
    return (
        f"{', '.join(files)} {'is' if len(files) == 1 else 'are'} behind approved memory; "
        f"run: {UPDATE_COMMAND}"
    )
