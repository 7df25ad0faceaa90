"""Reading the agents' own files that assemble splices its block into, within a limit.

An agent's instruction file is read whole to splice the block, so a file of gigabytes (by
mistake or on purpose) would be read into memory whole (issue 42, S2). Past
AGENT_FILE_MAX_BYTES it is refused before a byte is read: no agent puts a file that large
into its context anyway.
"""

from __future__ import annotations

from pathlib import Path

from git_memory import safefs
from git_memory.errors import GitMemoryError

AGENT_FILE_MAX_BYTES = 8 * 1024 * 1024


def read_agent_file(root: Path, relpath: str) -> bytes | None:
    """The bytes of the agent file `relpath` (None when absent); `GM_FILE_TOO_LARGE` past
    AGENT_FILE_MAX_BYTES, with what to do about it."""
    try:
        return safefs.read_file_nofollow(root, relpath, AGENT_FILE_MAX_BYTES)
    except GitMemoryError as error:
        if error.code != "GM_FILE_TOO_LARGE":
            raise
        raise GitMemoryError(
            "GM_FILE_TOO_LARGE",
            f"{relpath} is larger than {AGENT_FILE_MAX_BYTES} bytes; assemble reads an agent's "
            "file whole to put the memory block in it, so it leaves this one alone",
            hint=f"shorten {relpath} (agents read only the start of a file that large), "
            "or leave its agent out of memory.assembleTargets",
        ) from error
