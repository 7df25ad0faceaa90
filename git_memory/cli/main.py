"""`git memory` entry point: a lazy click group built from the operation registry.

Commands are imported only when invoked (or when their own help is asked for), so
`git memory -h` and the pre-commit hook stay fast.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import click

from git_memory import __version__
from git_memory.cli.errors import run_guarded
from git_memory.cli.root_help import (
    BUILTIN_COMMANDS,
    DIRECTORY_OPTION_HELP,
    MAX_CONTENT_WIDTH,
    ROOT_HELP,
    children,
    command_names,
    group_help,
    summary,
)

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": MAX_CONTENT_WIDTH}


class LazyGroup(click.Group):
    """A group whose commands come from the registry and load on first use."""

    def __init__(self, *args: Any, prefix: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.prefix = prefix

    def list_commands(self, ctx: click.Context) -> list[str]:
        return command_names(self.prefix)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if not self.prefix and cmd_name in BUILTIN_COMMANDS:
            module = importlib.import_module(BUILTIN_COMMANDS[cmd_name][0])
            command: click.Command = module.command
            return command
        members = children(self.prefix).get(cmd_name)
        if not members:
            return None
        path = (*self.prefix, cmd_name)
        leaf = [m for m in members if m.cli_path == path]
        if leaf:
            # Start-up seam (docs/architecture.md): the command builder (and with it pydantic)
            # loads for a leaf command only, not for a group's help, `--version` or completion.
            from git_memory.cli.commands import build_command  # noqa: PLC0415

            return build_command(leaf[0])
        return LazyGroup(
            name=cmd_name,
            prefix=path,
            help=group_help(path),
            context_settings=CONTEXT_SETTINGS,
        )

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            ctx.fail(_unknown_command(name, self.list_commands(ctx), self.prefix))
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Summaries come from the registry so listing commands imports none of them.
        rows: list[tuple[str, str]] = []
        for name in self.list_commands(ctx):
            rows.append((name, summary(self.prefix, name)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _unknown_command(name: str, known: list[str], prefix: tuple[str, ...]) -> str:
    """`No such command` with git's "did you mean" list of close names."""
    # Start-up seam (docs/architecture.md): only a mistyped command pays for difflib.
    import difflib  # noqa: PLC0415

    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    close += [c for c in known if c.startswith(name) and c not in close][: 3 - len(close)]
    message = f"No such command {name!r}."
    if close:
        words = " ".join(("git memory", *prefix))
        message += "\n\nThe most similar command" + (" is" if len(close) == 1 else "s are")
        message += "".join(f"\n\t{words} {c}" for c in close)
    return message


@click.group(
    cls=LazyGroup,
    context_settings=CONTEXT_SETTINGS,
    help=ROOT_HELP,
)
@click.version_option(
    __version__, "--version", prog_name="git memory", message="%(prog)s version %(version)s"
)
@click.option(
    "-C",
    "directories",
    multiple=True,
    metavar="DIR",
    help=DIRECTORY_OPTION_HELP,
)
def cli(directories: tuple[str, ...]) -> None:
    """Root group (help text above)."""
    for directory in directories:
        try:
            os.chdir(directory)
        except OSError as exc:
            raise click.UsageError(f"cannot change to {directory!r}: {exc.strerror}") from exc


def main(argv: list[str] | None = None) -> int:
    """Run the CLI on `argv` (default: this process's arguments); the documented exit status."""
    return run_guarded(cli, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
