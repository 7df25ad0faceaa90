"""The generated memory block's marker lines, and the text of a file without the block.

`assemble` writes approved memory between a BEGIN and an END marker line into the agents' own
files (`assemble/block.py` splices it). What lies between them is this tool's output, not an
agent's memory: harvest and doctor read an agent's file without it (docs/agent-memory.md).
"""

from __future__ import annotations

BEGIN_MARKER = "<!-- BEGIN GIT MEMORY (generated; do not edit by hand) -->"
END_MARKER = "<!-- END GIT MEMORY -->"
# The original tool's markers: a block it generated is taken over (replaced) in place.
LEGACY_BEGIN_MARKERS = ("<!-- BEGIN THREADSHARE MEMORY (generated; do not edit by hand) -->",)
LEGACY_END_MARKERS = ("<!-- END THREADSHARE MEMORY -->",)
BEGINS = frozenset((BEGIN_MARKER, *LEGACY_BEGIN_MARKERS))
ENDS = frozenset((END_MARKER, *LEGACY_END_MARKERS))


def without_generated(text: str) -> str:
    """`text` without every generated block: marker lines and what lies between a BEGIN and
    the next END (an END missing: to the end of the text), or a stray marker line."""
    kept: list[str] = []
    inside = False
    for line in text.splitlines(keepends=True):
        marker = line.strip("\r\n\t ")
        if marker in BEGINS:
            inside = True
        elif marker in ENDS:
            inside = False
        elif not inside:
            kept.append(line)
    return "".join(kept)


def only_generated(text: str) -> bool:
    """Whether `text` holds a generated block and nothing else: a file this tool wrote (the
    agents' store files get no frontmatter from assemble), not an agent's memory."""
    if not any(line.strip("\r\n\t ") in BEGINS for line in text.splitlines()):
        return False
    return not without_generated(text).strip()


def holds_block(data: bytes) -> bool:
    """Whether `data` (a file's bytes) has a BEGIN marker line: assemble wrote into it."""
    return any(
        line.strip(b"\r\t ").decode("utf-8", "replace") in BEGINS for line in data.split(b"\n")
    )


# The agents' own files assemble writes the block into, at the worktree root
# (assemble/render.py TARGET_FILES names the agent reading each; a test keeps them equal).
AGENT_FILES = (
    "CLAUDE.md",
    "AGENTS.md",
    "GEMINI.md",
    "QWEN.md",
    ".github/copilot-instructions.md",
    ".cursor/rules/git-memory.mdc",
)
