"""Generate `git-memory.1` (roff) from the click help, for `git help memory`.

`python -m git_memory.cli.manpage` rewrites `share/man/man1/git-memory.1`; a test fails when
the shipped page differs from what the current commands would generate.
"""

from __future__ import annotations

from pathlib import Path

import click

from git_memory import __version__, output
from git_memory.cli.main import cli

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
        # click joins the names of the context chain: the root already says `git memory`.
        sub_ctx = click.Context(command, info_name=name, parent=ctx)
        if isinstance(command, click.Group):
            sections += walk_commands(command, sub_ctx, path)
        else:
            sections.append((path, command.get_help(sub_ctx)))
    return sections


def root_context() -> click.Context:
    """A context for rendering help at a fixed width (the output must be deterministic).

    The width is what `git memory … --help` prints on an 80-column terminal: click keeps two
    columns free.
    """
    return click.Context(
        cli,
        info_name="git memory",
        terminal_width=78,
        max_content_width=78,
        help_option_names=["-h", "--help"],
    )


ENVIRONMENT = [
    ".SH ENVIRONMENT",
    ".TP",
    ".B GIT_MEMORY_HOME",
    "The private state home. When unset, \\fBgit config memory.home\\fR is used, then the",
    "XDG state directory (\\fI~/.local/state/git-memory\\fR on Linux).",
    ".TP",
    ".B CLAUDE_CONFIG_DIR",
    "Where Claude Code keeps its transcripts (\\fIprojects/\\fR below it); default",
    "\\fI~/.claude\\fR.",
    ".TP",
    ".B CODEX_HOME",
    "Where Codex keeps its transcripts (\\fIsessions/\\fR and \\fIarchived_sessions/\\fR below",
    "it); default \\fI~/.codex\\fR.",
]

FILES = [
    ".SH FILES",
    ".TP",
    ".I .memory/",
    "The memory root in the worktree, the only part meant to be committed (\\fBgit config",
    "memory.root\\fR moves it; a \\fI.threadshare/memory/\\fR directory is used when",
    "\\fI.memory/\\fR is absent).",
    ".TP",
    ".I $GIT_MEMORY_HOME/secret.json",
    "The key every identifier is an HMAC under.",
    ".TP",
    ".I $GIT_MEMORY_HOME/sessions.sqlite3",
    "The transcript index; \\fBgit memory sessions rebuild\\fR recreates it.",
    ".TP",
    ".I $GIT_MEMORY_HOME/memory-state.sqlite3",
    "Tasks, candidates, plans and the journal.",
    ".TP",
    ".I $GIT_MEMORY_HOME/artifacts/",
    "Plans, recall and conformance records.",
    ".TP",
    ".I $GIT_MEMORY_HOME/logs/",
    "Tracebacks of unexpected errors.",
    ".PP",
    "State directories are created 0700 and files 0600.",
]


def render_manpage() -> str:
    """The whole man page as roff text (deterministic: no dates)."""
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
    parts += [*ENVIRONMENT, *FILES]
    parts += [".SH SEE ALSO", "git(1), git-config(1), githooks(5)", ""]
    return "\n".join(parts)


def main() -> None:
    """Rewrite the shipped man page (run from the project root)."""
    MANPAGE_PATH.parent.mkdir(parents=True, exist_ok=True)
    MANPAGE_PATH.write_text(render_manpage(), encoding="utf-8")
    output.echo(f"wrote {MANPAGE_PATH}")


if __name__ == "__main__":
    main()
