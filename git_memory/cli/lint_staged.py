"""`git memory lint --staged` as the pre-commit hook runs it, without click or pydantic.

The hook fires on every commit, so its start-up is a budget (`tests/perf/bench_cli_startup.py`):
this path imports neither pygit2, pydantic nor click (git itself lists and reads the staged
blobs, see `repo/staged.py`), only the formats and the lint engine, and prints the same text
lines and exit status as the full command.
"""

from __future__ import annotations

from collections.abc import Callable

from git_memory import output
from git_memory.errors import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USER_ERROR,
    GitMemoryError,
)
from git_memory.failpoints import failpoint
from git_memory.repo.agent_files_staged import behind_warnings
from git_memory.repo.memory_lint import collect_findings, text_lines
from git_memory.repo.staged import (
    StagedWorktree,
    adopt_hook_environment,
    commit_known,
    discover,
    hook_worktree,
)
from git_memory.sessions.private import indexed_session_ids
from git_memory.store.reviewed import reviewed_digests


def run(find_worktree: Callable[[], StagedWorktree] = discover) -> int:
    """Lint the blobs the commit will record; 1 when anything blocks."""
    failpoint("lint.staged.start")
    try:
        worktree = find_worktree()
        results = collect_findings(
            worktree,
            staged=True,
            paths=[],
            indexed_ids=indexed_session_ids,
            known_commit=commit_known(worktree),
            reviewed=reviewed_digests,
        )
    except GitMemoryError as exc:
        output.print_error(exc.code, exc.message, exc.hint)
        return exc.exit_code
    lines = text_lines(results)
    if lines:
        output.echo("\n".join(lines))
    blocked = any(f.severity == "block" for found in results.values() for f in found)
    if blocked:
        return EXIT_USER_ERROR
    for warning in behind_warnings(worktree):
        output.echo(f"git-memory: {warning}", err=True)
    return EXIT_OK


def run_from_hook(settings_listing: str | None) -> int:
    """`lint --staged` as the hook shim (hooks/pre-commit) starts it: in git's own hook
    environment, with what its `git config --get-regexp` printed (None when that failed)."""
    adopt_hook_environment()
    return run_guarded_fast(lambda: hook_worktree(settings_listing))


def run_guarded_fast(find_worktree: Callable[[], StagedWorktree] = discover) -> int:
    """`run` with the CLI's handling of bugs and interrupts (exit 3 with a log, 130)."""
    try:
        return run(find_worktree)
    except KeyboardInterrupt:
        output.echo("error: interrupted", err=True)
        return EXIT_INTERRUPTED
    except Exception:
        # Start-up seam (docs/architecture.md): only a crash pays for traceback (tokenize, re)
        # on the hook's path.
        import traceback  # noqa: PLC0415

        from git_memory.paths import write_crash_log  # noqa: PLC0415

        log = write_crash_log(traceback.format_exc())
        output.echo("error: internal error in git memory (this is a bug) [GM_INTERNAL]", err=True)
        output.echo(f"hint: see log at {log}" if log else "hint: no log could be written", err=True)
        return EXIT_INTERNAL
