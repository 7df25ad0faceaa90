"""Crash points for tests: `GIT_MEMORY_FAILPOINT=<name>` kills the process at that point.

The process exits at once with status 86 (`os._exit`: no cleanup, no atexit, no flush), as a
power cut or `kill -9` would. Every name used in the code is listed in `FAILPOINTS` with where
it sits, so tests can iterate them and a typo is caught.
"""

from __future__ import annotations

import os

FAILPOINT_EXIT_STATUS = 86

# name -> where it fires. Subsystems add their names here.
FAILPOINTS: dict[str, str] = {}


def failpoint(name: str) -> None:
    """Die here when `GIT_MEMORY_FAILPOINT` names this point (comma-separated list allowed)."""
    wanted = os.environ.get("GIT_MEMORY_FAILPOINT")
    if not wanted:
        return
    if name not in FAILPOINTS:
        raise KeyError(f"undeclared failpoint {name!r}")
    if name in wanted.split(","):
        os._exit(FAILPOINT_EXIT_STATUS)
