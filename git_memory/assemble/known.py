"""What an agent reads for free, so the root block need not repeat it (docs/guide-context.md,
"Less is more").

The agent already reads the repository's own instructions in its file (the text outside the
generated block) and the README. An approved entry is left out of the root block when that
text already says it: a command line entry whose every inline code span appears there, or an
entry whose whole sentence appears there (case and spacing aside).
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from git_memory import safefs
from git_memory.assemble.agent_files import AGENT_FILE_MAX_BYTES, read_agent_file
from git_memory.assemble.block import remove_block
from git_memory.assemble.entries import ApprovedEntry
from git_memory.errors import GitMemoryError

README = "README.md"
MIN_SENTENCE = 24  # shorter sentences match too much by chance
_CODE = re.compile(r"`([^`]+)`")


def known_text(root: Path, target: str, header: str = "") -> str:
    """The agent's file outside the generated block, then the README ("" when absent).

    `header` is what assemble gives a new file (Cursor's frontmatter): it says nothing either.
    """
    parts = []
    current = read_agent_file(root, target)
    if current is not None:
        # A file whose markers cannot be trusted is refused by the splice anyway.
        with contextlib.suppress(GitMemoryError):
            parts.append(remove_block(current))
    # Only compared with, never written: a README past the limit is simply not consulted.
    readme = None
    with contextlib.suppress(GitMemoryError):
        readme = safefs.read_file_nofollow(root, README, AGENT_FILE_MAX_BYTES)
    if readme is not None:
        parts.append(readme)
    # A file holding only the block says nothing: the text must not depend on the block.
    empty = (b"", header.encode().strip())
    return b"\n".join(part for part in parts if part.strip() not in empty).decode(
        "utf-8", "replace"
    )


def _plain(text: str) -> str:
    return " ".join(text.lower().split())


def already_known(entry: ApprovedEntry, known: str, plain_known: str) -> bool:
    """Whether `known` (and `plain_known`, its lowercased single-spaced form) says `entry`."""
    if entry.group == "commands":
        spans = _CODE.findall(entry.text)
        if spans and all(span in known for span in spans):
            return True
    sentence = _plain(entry.text).rstrip(".!?… ")
    return len(sentence) >= MIN_SENTENCE and sentence in plain_known


def split_known(entries: list[ApprovedEntry], known: str) -> tuple[list[ApprovedEntry], list[str]]:
    """(entries to render, ids of the entries `known` already says)."""
    if not known.strip():
        return entries, []
    plain_known = _plain(known)
    keep, said = [], []
    for entry in entries:
        if already_known(entry, known, plain_known):
            said.append(entry.id)
        else:
            keep.append(entry)
    return keep, said
