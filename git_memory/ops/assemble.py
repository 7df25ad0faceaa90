"""`git memory assemble --provider claude|codex|all [--dry-run]`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

import click

from git_memory import safefs
from git_memory.assemble.agent_files import read_agent_file
from git_memory.assemble.config import assemble_budget, assemble_targets
from git_memory.assemble.freshness import freshness_check
from git_memory.assemble.in_step import assemble_inputs
from git_memory.assemble.once import carriers
from git_memory.assemble.render import TARGET_FILES
from git_memory.assemble.run import assemble as run_assemble
from git_memory.assemble.snapshot import read_snapshot
from git_memory.contracts.assemble import (
    AGENTS,
    Agent,
    AssembledFile,
    AssembleRequest,
    AssembleResponse,
    BlockReport,
    ProviderAssembly,
    ScopedBlock,
)
from git_memory.errors import GitMemoryError
from git_memory.formats.generated_block import holds_block
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.repo.agent_files_staged import touch_assembled
from git_memory.store.session import open_workspace

if TYPE_CHECKING:
    from git_memory.assemble.render import Provider, Rendered
    from git_memory.assemble.run import AssembleInputs, AssembleResult
    from git_memory.repo.binding import Worktree


def assemble(ctx: OpContext, request: AssembleRequest) -> AssembleResponse:
    """Write approved memory as one generated block into each agent's own file (CLAUDE.md,
    AGENTS.md, GEMINI.md, QWEN.md, .github/copilot-instructions.md,
    .cursor/rules/git-memory.mdc; all: every one; default: memory.assembleTargets; a shared
    file once): entries one line each, grouped, then doctrine, scene and skill indexes, within
    memory.assembleBudget bytes, the rest counted; skills go to .claude/skills/ or
    .codex/skills/.

    Text outside the block is never touched; unchanged files are not rewritten. A projection
    someone edited is a conflict (nothing written). --dry-run prints the diff only.
    """
    worktree = ctx.worktree
    require_memory_root(worktree)
    providers = chosen_providers(worktree, request.provider)
    response = assemble_providers(worktree, providers, request)
    chosen = _chosen(worktree, request.provider, providers)
    return response.model_copy(update={"chosen": chosen}) if chosen else response


def assemble_providers(
    worktree: Worktree, providers: list[Provider], request: AssembleRequest
) -> AssembleResponse:
    """Assemble the files of `providers` (the request says what to report and whether dry)."""
    sharing = readers_by_file(providers)
    budget = assemble_budget(worktree)
    inputs = [
        (_once(worktree, assemble_inputs(worktree, first, budget), first, providers), first)
        for first in sharing
    ]
    with open_workspace(worktree) as workspace:
        snapshot = read_snapshot(workspace, freshness_check())
        results = run_assemble(inputs, snapshot, dry_run=request.dry_run)
    if not request.dry_run:
        touch_assembled(str(worktree.state_home), str(worktree.root))
    assemblies = [_assembly(result, budget, sharing[result.provider]) for result in results]
    first = assemblies[0]
    return AssembleResponse(
        provider=request.provider,
        dry_run=request.dry_run,
        changed=any(item.changed for item in assemblies),
        target=first.target,
        skills=first.skills,
        block=first.block,
        providers=assemblies,
        diff="".join(result.diff for result in results),
        notes=list(dict.fromkeys(note for result in results for note in result.notes))
        + _claude_note(worktree, providers),
    )


def _once(
    worktree: Worktree, inputs: AssembleInputs, provider: Provider, written: list[Provider]
) -> AssembleInputs:
    """`inputs` with the other agents' files that carry `provider`'s memory (`once.py`)."""

    def holds(path: str) -> bool:
        try:
            data = read_agent_file(worktree.root, path)
        except GitMemoryError:
            return False
        return data is not None and holds_block(data)

    return replace(inputs, carriers=carriers(provider, written, holds))


def chosen_providers(worktree: Worktree, provider: Agent | str) -> list[Provider]:
    """`all`: every agent assemble writes for; `configured`: memory.assembleTargets."""
    if provider == "all":
        return list(AGENTS)
    if provider == "configured":
        return assemble_targets(worktree)
    return [cast("Provider", provider)]


def _chosen(worktree: Worktree, provider: str, providers: list[Provider]) -> str | None:
    """Without --provider, which agents were chosen and why (issue 45, item 3)."""
    if provider != "configured":
        return None
    names = ", ".join(providers)
    if worktree.config_value("memory.assembleTargets") is not None:
        return f"for {names} (memory.assembleTargets; --provider all: every agent)"
    return (
        f"for {names} (claude, codex and the agents of this repository's indexed sessions; "
        "--provider all: every agent; memory.assembleTargets: your own list)"
    )


def _claude_note(worktree: Worktree, providers: list[Provider]) -> list[str]:
    """Claude Code (from 2.1.277) reads AGENTS.md only when there is no CLAUDE.md."""
    writes_agents = any(p in ("codex", "opencode") for p in providers)
    if "claude" in providers or not writes_agents:
        return []
    if safefs.read_file_nofollow(worktree.root, "CLAUDE.md") is None:
        return []
    return [
        "Claude Code reads AGENTS.md only when there is no CLAUDE.md; add claude to "
        "memory.assembleTargets (or run --provider claude) so it gets the memory too"
    ]


def readers_by_file(providers: list[Provider]) -> dict[Provider, list[Provider]]:
    """The first provider of each target file → the other providers reading that file, so a
    file two agents share (AGENTS.md: Codex and OpenCode) is written once."""
    first: dict[str, Provider] = {}
    sharing: dict[Provider, list[Provider]] = {}
    for provider in providers:
        owner = first.setdefault(TARGET_FILES[provider], provider)
        sharing.setdefault(owner, [])
        if owner != provider:
            sharing[owner].append(provider)
    return sharing


def require_memory_root(worktree: Worktree) -> None:
    """Refuse (`GM_NO_MEMORY_ROOT`) a worktree without a memory root."""
    if not worktree.memory_dir.is_dir():
        raise GitMemoryError(
            "GM_NO_MEMORY_ROOT",
            f"there is no memory root {worktree.memory_root}/ in this worktree to assemble from",
            hint="git memory init (or pull the branch that has the team's memory)",
        )


def block_report(rendered: Rendered, budget: int) -> BlockReport:
    """The JSON report of a rendered block."""
    doctrine = {None: "none", True: "shown", False: "left-out"}[rendered.doctrine]
    return BlockReport(
        bytes=rendered.bytes,
        tokens=rendered.tokens,
        budget=budget,
        shown=rendered.shown,
        via_scenes=rendered.via_scenes,
        left_out=rendered.left_out,
        held_back=rendered.held_back,
        scenes=rendered.scenes[0],
        scenes_left_out=rendered.scenes[1],
        skills=rendered.skills[0],
        skills_left_out=rendered.skills[1],
        doctrine=doctrine,
        known=rendered.known,
    )


def _assembly(result: AssembleResult, budget: int, shared: list[Provider]) -> ProviderAssembly:
    return ProviderAssembly(
        provider=result.provider,
        shared_with=shared,
        scoped=[
            ScopedBlock(
                path=s.path,
                scope=s.scope,
                action=s.action,
                shown=s.rendered.shown if s.rendered else [],
                bytes=s.rendered.bytes if s.rendered else 0,
            )
            for s in result.scoped
        ],
        changed=result.changed,
        target=AssembledFile(path=result.target, action=result.target_action),
        skills=[AssembledFile(path=p.path, action=p.action) for p in result.projections],
        block=block_report(result.block, budget),
    )


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> AssembleRequest:
    provider = values.get("provider") or "configured"
    return AssembleRequest(provider=provider, dry_run=values["dry_run"])


# The entries a `verify` command line names at most; the rest are counted.
MAX_NAMED = 10

_VERBS = {
    "appended": "block appended",
    "replaced": "block replaced",
    "unchanged": "unchanged",
    "create": "created",
    "update": "updated",
    "remove": "removed (skill no longer exists)",
    "kept-edited": "kept (edited by someone; its skill no longer exists)",
    "forget": "already gone",
}


def summary_line(block: BlockReport) -> str:
    """`7 entries shown, 2 through scenes, 120 left out; 6123 of 8000 bytes (~1531 tokens)`."""
    parts = [f"{len(block.shown)} entries shown"]
    parts += [f"{len(block.via_scenes)} through scenes"] if block.via_scenes else []
    parts += [f"{len(block.left_out)} left out"] if block.left_out else []
    parts += [f"{len(block.held_back)} held back as stale"] if block.held_back else []
    parts += [f"{len(block.known)} already said in this repository"] if block.known else []
    size = f"{block.bytes} of {block.budget} bytes (~{block.tokens} tokens)"
    return f"{', '.join(parts)}; {size}"


def render(response: AssembleResponse) -> str:
    """The diff for --dry-run; otherwise the files touched and what each block holds."""
    if response.dry_run:
        return response.diff.rstrip("\n") or "nothing to change"
    lines = [response.chosen] if response.chosen else []
    for item in response.providers:
        readers = f" (read by {', '.join([item.provider, *item.shared_with])})"
        lines.append(
            f"{item.target.path}: {_VERBS[item.target.action]}{readers if item.shared_with else ''}"
        )
        lines.append(f"  {summary_line(item.block)}")
        for scoped in item.scoped:
            if scoped.action in ("remove", "update"):
                lines.append(f"{scoped.path}: block removed (no entries apply there any more)")
            else:
                count = f"{len(scoped.shown)} entries for {scoped.scope}/"
                lines.append(f"{scoped.path}: {_VERBS[scoped.action]} ({count})")
        lines += [
            f"{skill.path}: {_VERBS[skill.action]}"
            for skill in item.skills
            if skill.action not in ("unchanged", "forget")
        ]
    lines += [f"note: {note}" for note in response.notes]
    lines += held_back_lines(response.providers)
    return "\n".join(lines)


def held_back_lines(providers: list[ProviderAssembly]) -> list[str]:
    """Name the entries held back as stale, and the command that says why (issue 45)."""
    ids = list(dict.fromkeys(i for item in providers for i in item.block.held_back))
    if not ids:
        return []
    more = len(ids) - MAX_NAMED
    rest = f" (and {more} more: git memory list --stale)" if more > 0 else ""
    why = f"  why: git memory verify {' '.join(ids[:MAX_NAMED])}{rest}"
    return [f"held back as stale: {', '.join(ids)}", why]


OPERATION = Operation(
    spec=spec("assemble"),
    request_model=AssembleRequest,
    response_model=AssembleResponse,
    handler=assemble,
    cli_params=[
        click.Option(
            ["--provider"],
            type=click.Choice([*AGENTS, "all"]),
            default=None,
            help="Whose files: claude (CLAUDE.md, .claude/skills), codex (AGENTS.md, "
            ".codex/skills), opencode (AGENTS.md), gemini (GEMINI.md), qwen (QWEN.md), "
            "copilot (.github/copilot-instructions.md), cursor (.cursor/rules/git-memory.mdc) "
            "or all (every one of them). Default: memory.assembleTargets, else claude, codex "
            "and the agents of this repository's indexed sessions.",
        ),
        click.Option(["--dry-run"], is_flag=True, help="Print the diff; write nothing."),
    ],
    from_cli=_from_cli,
    render_text=render,
    mcp_annotations={"idempotentHint": True},
)
