"""The `git-memory` console script: dispatch the fast paths before loading click.

`lint --staged` (what the pre-commit hook runs) and `-h` have their own light paths: both run
often and their start-up is a measured budget (`tests/perf/bench_cli_startup.py`).
"""

from __future__ import annotations

import os
import sys


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    """`git memory lint --staged` and `git memory -h` skip the command tree; everything else
    goes through the click CLI."""
    argv = tuple(sys.argv[1:])
    if argv in (("-h",), ("--help",), ("help",)) and "_GIT_MEMORY_COMPLETE" not in os.environ:
        from git_memory.cli.root_help import print_root_help

        print_root_help()
        sys.exit(0)
    import signal

    # A TERM (a CI job cancelled, `timeout`) or HUP ends the command the way Ctrl-C does: a
    # runner's process group is killed and its one-time directories are removed, never left.
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _interrupted)
    if argv == ("lint", "--staged"):
        from git_memory.cli.lint_staged import run_guarded_fast

        sys.exit(run_guarded_fast())
    from git_memory.cli.main import main as cli_main

    cli_main()
