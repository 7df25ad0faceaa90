"""`git memory help [COMMAND…]`: click help, since `--help` goes to `git help memory`."""

from __future__ import annotations

import click

from git_memory import glossary, output


@click.command(name="help", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("words", nargs=-1)
@click.pass_context
def command(ctx: click.Context, words: tuple[str, ...]) -> None:
    """Show help for git memory, one of its commands (e.g. `git memory help sessions sync`),
    or the glossary: `git memory help glossary` says the words its screens use in plain
    words."""
    if words == ("glossary",):
        output.echo(glossary.render())
        return
    root = ctx.find_root().command
    current: click.Command = root
    info_name = "git memory"
    parent = ctx.find_root()
    for word in words:
        if not isinstance(current, click.Group):
            raise click.UsageError(f"{info_name!r} has no subcommands")
        sub = current.get_command(parent, word)
        if sub is None:
            raise click.UsageError(f"no such command: {' '.join(words)}")
        parent = click.Context(sub, info_name=word, parent=parent)
        current = sub
        info_name = f"{info_name} {word}"
    help_ctx = parent if words else ctx.find_root()
    output.echo(current.get_help(help_ctx))
