"""Generate `git-memory.1` (roff) from the click help, for `git help memory`.

`python -m git_memory.cli.manpage` rewrites `share/man/man1/git-memory.1`; a test fails when
the shipped page differs from what the current commands would generate.
"""

from __future__ import annotations

from pathlib import Path

import click

from git_memory import __version__, output

MANPAGE_PATH = Path("share/man/man1/git-memory.1")


def _escape(text: str) -> str:
    lines = []
    for line in text.replace("\\", "\\e").splitlines():
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def walk_commands(group: click.Group, ctx: click.Context, prefix: str) -> list[tuple[str, str]]:
    """(command path, its help text) of every leaf command below `group`."""
    sections: list[tuple[str, str]] = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None:
            continue
        path = f"{prefix} {name}".strip()
        sub_ctx = click.Context(command, info_name=f"git memory {path}", parent=ctx)
        if isinstance(command, click.Group):
            sections += walk_commands(command, sub_ctx, path)
        else:
            sections.append((path, command.get_help(sub_ctx)))
    return sections


def root_context() -> click.Context:
    """A context for rendering help at a fixed width (the output must be deterministic)."""
    from git_memory.cli.main import cli

    return click.Context(
        cli,
        info_name="git memory",
        terminal_width=80,
        max_content_width=80,
        help_option_names=["-h", "--help"],
    )


def render_manpage() -> str:
    """The whole man page as roff text (deterministic: no dates)."""
    from git_memory.cli.main import cli

    ctx = root_context()
    parts = [
        f'.TH GIT-MEMORY 1 "" "git-team-memory {__version__}" "Git Manual"',
        ".SH NAME",
        "git-memory \\- team memory mined from AI coding agent transcripts",
        ".SH SYNOPSIS",
        ".B git memory",
        "[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]...",
        ".SH DESCRIPTION",
        ".nf",
        _escape(cli.get_help(ctx)),
        ".fi",
        ".SH COMMANDS",
    ]
    for path, text in walk_commands(cli, ctx, ""):
        parts += [f".SS {path}", ".nf", _escape(text), ".fi"]
    parts += [".SH SEE ALSO", "git(1), git-config(1), githooks(5)", ""]
    return "\n".join(parts)


def main() -> None:
    """Rewrite the shipped man page (run from the project root)."""
    MANPAGE_PATH.parent.mkdir(parents=True, exist_ok=True)
    MANPAGE_PATH.write_text(render_manpage(), encoding="utf-8")
    output.echo(f"wrote {MANPAGE_PATH}")


if __name__ == "__main__":
    main()
