"""The `git-memory` console script: dispatch the hook's fast path before loading click."""

from __future__ import annotations

import sys


def main() -> None:
    """`git memory lint --staged` (what the pre-commit hook runs) skips the command tree;
    everything else goes through the click CLI."""
    if tuple(sys.argv[1:]) == ("lint", "--staged"):
        from git_memory.cli.lint_staged import run_guarded_fast

        sys.exit(run_guarded_fast())
    from git_memory.cli.main import main as cli_main

    cli_main()
