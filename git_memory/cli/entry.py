"""The `git-memory` console script: dispatch the fast paths before loading click.

`lint --staged` (what the pre-commit hook runs), `-h`, `mcp` and the recorded answers of
`context` (what session-start hooks run), `status` and `list` have their own light paths:
they run often and their start-up is a measured budget (`tests/perf/`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from git_memory import output

# The forms whose last answer is recorded (ops/recorded_answers.py), by the name it is kept
# under: `context` as the Claude Code and Codex session-start hooks run it, `status`, `list`.
RECORDED_FORMS = {
    ("context",): "context-claude",
    ("context", "--provider", "claude"): "context-claude",
    ("context", "--provider", "codex"): "context-codex",
    ("status",): "status",
    ("list",): "list",
    ("list", "--stale"): "list-stale",
}


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    """Run `git memory ARGV…` (default: this process's arguments) and return its exit status.

    The console script exits with what this returns. A hook shim up to v4 (hooks/pre-commit)
    runs `main()` from `python -c` and drops the result, so for it this exits itself: an
    installed older hook keeps refusing a commit until `git memory hooks install` upgrades it.
    """
    status = _dispatch(tuple(sys.argv[1:] if argv is None else argv))
    if argv is None and sys.argv[:1] == ["-c"]:
        sys.exit(status)
    return status


def _dispatch(argv: tuple[str, ...]) -> int:
    """`git memory lint --staged` (what the pre-commit hook runs), `git memory -h` and
    `git memory mcp` (what agent clients spawn) skip the command tree; everything else goes
    through the click CLI. The imports below are start-up seams: each path loads its own
    modules only (signal, with enum, only once no answer was printed already)."""
    if argv in (("-h",), ("--help",), ("help",)) and "_GIT_MEMORY_COMPLETE" not in os.environ:
        from git_memory.cli.root_help import print_root_help  # noqa: PLC0415

        print_root_help()
        return 0
    if argv in RECORDED_FORMS and "_GIT_MEMORY_COMPLETE" not in os.environ:
        # A session-start hook runs `context` every time: print the recorded answer while
        # nothing it was made from changed (assemble/answers.py), before the command tree loads.
        from git_memory.assemble.answers import cached_answer  # noqa: PLC0415

        text = cached_answer(os.getcwd(), RECORDED_FORMS[argv])
        if text is not None:
            if text:
                output.echo(text)  # recorded as the CLI printed it, controls escaped
            return 0
    import signal  # noqa: PLC0415

    # A TERM (a CI job cancelled, `timeout`) or HUP ends the command the way Ctrl-C does: a
    # runner's process group is killed and its one-time directories are removed, never left.
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _interrupted)
    if argv == ("lint", "--staged"):
        from git_memory.cli.lint_staged import run_guarded_fast  # noqa: PLC0415

        return run_guarded_fast()
    if argv[:1] == ("mcp",):
        # Agent clients wait for the MCP handshake: answer it before the command tree loads.
        from git_memory.mcp.main import serve_from_argv  # noqa: PLC0415

        status = serve_from_argv(argv[1:])
        if status is not None:
            return status
    from git_memory.cli.main import main as cli_main  # noqa: PLC0415

    return cli_main(list(argv))
