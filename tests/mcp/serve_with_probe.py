"""Run `git memory mcp` with the test-only probe operations added (a real stdio server)."""

from __future__ import annotations

import sys

from git_memory.mcp.main import serve
from git_memory.ops.registry import OPERATIONS
from tests.mcp.approval_probe import PREVIEW_SPEC, PROBE_SPEC

if __name__ == "__main__":
    sys.exit(
        serve(
            sys.argv[1] if len(sys.argv) > 1 else None,
            (*OPERATIONS, PROBE_SPEC, PREVIEW_SPEC),
            tools="all",
        )
    )
