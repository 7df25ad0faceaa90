"""Each entry reaches each agent once (docs/guide-context.md, "Once per agent").

Some agents read another agent's file besides their own: Qwen Code reads `AGENTS.md` beside
`QWEN.md`; GitHub Copilot CLI reads `AGENTS.md` and `CLAUDE.md` beside
`.github/copilot-instructions.md`, and lists Claude Code's `.claude/rules/` files beside its
own `.github/instructions/`. When the other file carries the block, the agent's own file
gets a short block that says where the memory is instead of a second copy, and its scoped
files are not written (those written before are taken out). Which agent reads what is data,
one row per agent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from git_memory.assemble.block import BEGIN_MARKER, END_MARKER
from git_memory.assemble.render import HEADING, TARGET_FILES, Provider, Rendered

# Agent → the other agents' root files it reads too (in the order it prefers them).
ALSO_READS: dict[Provider, tuple[str, ...]] = {
    "qwen": ("AGENTS.md",),
    "copilot": ("AGENTS.md", "CLAUDE.md"),
}
# Agent → the agent whose scoped files it reads too (Qwen Code: a directory's AGENTS.md;
# Copilot CLI: `.claude/rules/` listed with their `paths:`).
ALSO_READS_SCOPED: dict[Provider, Provider] = {"qwen": "codex", "copilot": "claude"}


@dataclass(frozen=True)
class Carriers:
    """For one agent: the file of another agent that carries its root block (None: its own
    file does), and whether another agent's scoped files carry its scoped blocks."""

    root: str | None = None
    scoped: bool = False


def carriers(
    provider: Provider, written: list[Provider], holds_block: Callable[[str], bool]
) -> Carriers:
    """Who carries `provider`'s memory when this run writes the files of `written`;
    `holds_block(path)` says whether a file not written now holds the block already."""
    files = {TARGET_FILES[other] for other in written}
    root = next(
        (path for path in ALSO_READS.get(provider, ()) if path in files or holds_block(path)),
        None,
    )
    scoped = ALSO_READS_SCOPED.get(provider) in written
    return Carriers(root, scoped)


def pointer_block(provider: Provider, carrier: str) -> Rendered:
    """The block of an agent whose memory another file it reads carries."""
    del provider  # the same words for every agent; kept for the reports
    text = "\n".join(
        [
            BEGIN_MARKER,
            "",
            HEADING,
            "",
            f"The team memory is in `{carrier}`, which is read here too, so it is not "
            "repeated in this file.",
            END_MARKER,
        ]
    )
    return Rendered(
        text=text,
        shown=[],
        via_scenes=[],
        left_out=[],
        held_back=[],
        scenes=(0, 0),
        skills=(0, 0),
        doctrine=None,
    )
