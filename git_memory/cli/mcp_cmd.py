"""`git memory mcp`: serve the operations as MCP tools over stdio."""

from __future__ import annotations

import click

from git_memory.mcp.main import serve
from git_memory.mcp.surface import SURFACES


@click.command(name="mcp", context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--repository",
    "-C",
    "repository",
    type=click.Path(file_okay=False),
    default=None,
    help="Bind the server to the worktree at PATH (default: current directory).",
)
@click.option(
    "--tools",
    "tools",
    type=click.Choice(SURFACES),
    default=None,
    help="List the everyday flow's tools or all of them (default: memory.mcpTools, else everyday).",
)
def command(repository: str | None, tools: str | None) -> int:
    """Serve git memory as an MCP server on standard input and output (for coding agents).

    Register it once with Claude Code, for every project:

    \b
      claude mcp add --scope user git-memory -- git memory mcp

    For Codex and the permission rules, `git memory doctor` prints where the shipped
    snippets are (contrib/mcp/, installed with the package as git_memory/_contrib/mcp/).
    The server is bound to the worktree it starts in; its tools are generated from the same
    operations as these commands and return the documents `--format json` prints. It lists
    the everyday flow's eight tools (recall, stage, review, prepare, promote, search, status);
    `--tools all` or `git config memory.mcpTools all` lists every tool (docs/guide-agent.md
    gives each one's cost in bytes of every model request).
    """
    # The CLI is the program's entry point and sits above the MCP front end; the server (and
    # the MCP SDK) load only when this command runs, not for `git memory -h`.

    return serve(repository, tools=tools)
