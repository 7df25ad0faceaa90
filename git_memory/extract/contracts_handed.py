"""Which recall contracts this process has handed out already, per worktree.

An MCP server lives as long as its client's session, and what a tool printed stays in the
agent's context: a recall's prompts and answer schemas (about 12 KB, most of a small
session's bytes when every recall repeated them) travel with the first recall of the session
and later ones name their digest. Every CLI run is a process of its own and prints them each
time. `withContracts` asks for them again, for a client that cleared its context while its
server kept running.
"""

from __future__ import annotations

from pathlib import Path

_HANDED: set[tuple[str, str]] = set()


def handed_before(state_home: Path, contracts_digest: str) -> bool:
    """Whether this process handed out these contracts for this worktree already; records
    that it does now."""
    key = (str(state_home), contracts_digest)
    seen = key in _HANDED
    _HANDED.add(key)
    return seen
