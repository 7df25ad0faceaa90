"""Turn exceptions into exit statuses (docs/troubleshooting.md): one `error:` line, never a
traceback on screen."""

from __future__ import annotations

import os
import traceback

import click

from git_memory import output
from git_memory.errors import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    GitMemoryError,
)
from git_memory.formats.controls import escape_json_controls
from git_memory.paths import write_crash_log

COMPLETE_VAR = "_GIT_MEMORY_COMPLETE"


def run_guarded(command: click.Command, argv: list[str] | None) -> int:
    """Run `command`, mapping every outcome to an exit status."""
    # Help reads `git memory …`; a completion script registers for the `git-memory` program
    # the shell runs (a function name and a command name cannot hold a space).
    prog_name = "git-memory" if COMPLETE_VAR in os.environ else "git memory"
    try:
        result = command.main(
            args=argv,
            prog_name=prog_name,
            complete_var=COMPLETE_VAR,
            standalone_mode=False,
        )
    except GitMemoryError as exc:
        report_error(exc)
        return exc.exit_code
    except click.exceptions.Abort:
        output.echo("error: aborted", err=True)
        return EXIT_INTERRUPTED
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return EXIT_USAGE if isinstance(exc, click.UsageError) else exc.exit_code
    except KeyboardInterrupt:
        output.echo("error: interrupted", err=True)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except Exception:
        log = write_crash_log(traceback.format_exc())
        output.echo("error: internal error in git memory (this is a bug) [GM_INTERNAL]", err=True)
        output.echo(f"hint: see log at {log}" if log else "hint: no log could be written", err=True)
        return EXIT_INTERNAL
    return result if isinstance(result, int) else EXIT_OK


def report_error(exc: GitMemoryError) -> None:
    """Print a GitMemoryError once (and as JSON on stdout when JSON output was asked for)."""
    if output.json_errors_enabled():
        error = {"format": "git-memory-error@v1", "error": exc.to_json()}
        output.echo_json(error, escape_json_controls)
    output.print_error(exc.code, exc.message, exc.hint)
