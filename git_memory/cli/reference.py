"""`docs/cli.md`: the CLI reference, generated from the same click help as the man page.

`python -m git_memory.cli.reference` rewrites it; a test fails when it is stale.
"""

from __future__ import annotations

from pathlib import Path

from git_memory import output
from git_memory.cli.main import cli
from git_memory.cli.manpage import root_context, walk_commands

REFERENCE_PATH = Path("docs/cli.md")


def render_reference() -> str:
    """Markdown: the top-level help, then every command's help in a code block."""
    ctx = root_context()
    parts = [
        "# CLI reference",
        "",
        "Generated from `git memory help COMMAND` by `python -m git_memory.cli.reference`;",
        "a test fails when this file and the commands disagree.",
        "",
        "```text",
        cli.get_help(ctx),
        "```",
    ]
    for path, text in walk_commands(cli, ctx, ""):
        parts += ["", f"## git memory {path}", "", "```text", text, "```"]
    return "\n".join(parts) + "\n"


def main() -> None:
    """Rewrite docs/cli.md (run from the project root)."""
    REFERENCE_PATH.parent.mkdir(parents=True, exist_ok=True)
    REFERENCE_PATH.write_text(render_reference(), encoding="utf-8")
    output.echo(f"wrote {REFERENCE_PATH}")


if __name__ == "__main__":
    main()
