"""`git memory verify [ID…]`: is approved memory still true of this worktree?"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.lifecycle import (
    FreshnessCounts,
    VerifyRequest,
    VerifyResponse,
)
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.verify.check import counts, entry_not_found, expand_short_ids, verify_memory
from git_memory.verify.directives import directive_lines, unreviewed_directives
from git_memory.verify.drift_report import (
    drift_response,
    github_annotations,
    render_drift,
    verified_memory,
)


def verify(ctx: OpContext, request: VerifyRequest) -> VerifyResponse:
    """Check approved memory against the worktree and repository; changes nothing.

    Each approved entry is fresh (everything it relies on holds), stale (something is gone;
    the reasons say what) or unverifiable (nothing to check). Checked: cited paths exist in
    the worktree (untracked ones are noted), cited commits exist and are reachable from HEAD
    (not checked in a shallow clone), and what the commands named in inline code need: the
    make/just target, the `npm|pnpm|yarn|bun run` script in the nearest package.json, a
    script file, pyproject.toml for uv/poetry, Cargo.toml, go.mod, the compose service.
    Scenes and skills are checked for the commands they name. IDs (entry ids or any unique
    prefix of one, `scene:NAME`, `skill:NAME`) narrow the check. With `--changed BASE`, only
    the entries whose evidence (cited paths, the manifests and files their commands need) the
    change BASE...HEAD touches are listed, each with its state now; `--format github` prints
    workflow annotations: on the changed lines with `--changed`, else on each stale memory
    file. Text that tells agents to act beyond a memory's role (fetch and run code, send data
    out, read credentials, switch checks off, hide actions, override instructions) in a memory
    file no promotion reviewed on this machine wrote — a teammate's entry after a pull, a file
    edited by hand — is flagged with its file and line (`GM_DIRECTIVE_*`); a flag does not
    change the exit status. Exits 1 when anything is stale.
    """
    if request.changed is not None:
        return drift_response(ctx.worktree, request.changed)

    checked = verify_memory(ctx.worktree, request.ids)
    missing = sorted(set(request.ids) - {item.id for item in checked})
    if missing:
        raise entry_not_found(missing)
    paths = {item.path for item in checked}
    flagged = [d for d in unreviewed_directives(ctx.worktree) if not request.ids or d.path in paths]
    return VerifyResponse(
        entries=[verified_memory(item) for item in checked],
        counts=FreshnessCounts(**counts(checked)),
        directives=flagged or None,
    )


def render(response: VerifyResponse) -> str:
    """One line per stale or unverifiable memory with its reasons, then the counts."""
    if response._rendering == "github":
        return github_annotations(response)
    if response.drift is not None:
        return render_drift(response)
    lines = []
    for item in response.entries:
        if item.state != "fresh":
            why = "; ".join(r.message for r in item.reasons)
            lines.append(f"{item.path}: {item.state}: {why}")
    lines += directive_lines(response.directives or [])
    counts = response.counts
    lines.append(
        f"{counts.total} checked: {counts.fresh} fresh, {counts.stale} stale, "
        f"{counts.unverifiable} unverifiable"
    )
    if counts.stale:
        lines.append("stale memory stays out of assembled context; fix the code or the memory, "
                     "or retire it: git memory retire ID --reason TEXT (`git memory list --stale`"
                     " shows the ids)")  # fmt: skip
    return "\n".join(lines)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> dict[str, Any]:
    ids = expand_short_ids(ctx.worktree, values.get("ids") or ())
    return {"ids": ids, "changed": values.get("changed")}


def _handler(ctx: OpContext, request: VerifyRequest) -> VerifyResponse:
    response = verify(ctx, request)
    response._rendering = ctx.output_format
    return response


_handler.__doc__ = verify.__doc__


OPERATION = Operation(
    spec=spec("verify"),
    request_model=VerifyRequest,
    response_model=VerifyResponse,
    handler=_handler,
    cli_params=[
        click.Argument(["ids"], nargs=-1, metavar="[ID]..."),
        click.Option(
            ["--changed", "changed"],
            metavar="BASE",
            default=None,
            help="Only the entries whose evidence BASE...HEAD touches (drift in review).",
        ),
        click.Option(
            ["--format", "output_format"],
            type=click.Choice(["text", "json", "github"]),
            default="text",
            show_default=True,
            help="Output format: text for people, json for scripts and agents, github for"
            " workflow annotations (on the changed lines with --changed).",
        ),
    ],
    from_cli=_from_cli,
    render_text=render,
    exit_code=lambda response: 1 if response.counts.stale else 0,
    mcp_annotations={"idempotentHint": True},
)
