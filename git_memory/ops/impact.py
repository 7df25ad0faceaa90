"""`git memory impact [ID…] [--since WHEN]`: does each approved entry change what sessions do?"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.impact import EntryImpact, ImpactRequest, ImpactResponse, ImpactWindow
from git_memory.impact.report import impact as measure_impact
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.ops.timeflags import utc_timestamp
from git_memory.verify.check import entry_not_found, expand_short_ids


def impact(ctx: OpContext, request: ImpactRequest) -> ImpactResponse:
    """Measure each approved trap, rule and command against this worktree's session index
    (every agent): sessions before and after the entry landed (the first commit on the
    current branch that added its file; an uncommitted entry says so). A trap counts the
    sessions whose failing command failed and those that ran its fix first; a rule, the
    sessions that ran a command it forbids or whose person stated it again; a command, the
    sessions that used it and those that used another command of the same kind. Each entry
    gets both windows (sessions, days, counts) and a verdict: helped, no change, not
    relevant since, too little data (fewer than 10 sessions on a side) or uncommitted. A
    correlation in this team's history, not a controlled experiment. IDs (or unique prefixes)
    narrow it. Run `git memory sessions sync` first. Changes nothing.
    """
    response = measure_impact(ctx.worktree, request.ids, request.since)
    missing = sorted(set(request.ids) - {item.id for item in response.entries})
    if missing:
        raise entry_not_found(missing)
    return response


def render(response: ImpactResponse) -> str:
    """One line per entry: verdict, kind, id, the counts before → after; then the summary."""
    lines = [_line(item, response.min_sessions) for item in response.entries]
    lines.append(f"{response.sessions} sessions read; {response.summary}")
    return "\n".join(lines)


def _line(item: EntryImpact, threshold: int) -> str:
    head = f"{item.verdict:<18} {item.kind:<7} {item.id}"
    if item.before is None or item.after is None:
        return f"{head}: not committed on this branch yet"
    what = {"trap": "hit", "rule": "broke or re-asked", "command": "used a variant"}[item.kind]
    return (
        f"{head}: {what} in {_counts(item.before, threshold)} before → "
        f"{_counts(item.after, threshold)} after (landed {(item.landed_at or '')[:10]})"
    )


def _counts(window: ImpactWindow, threshold: int) -> str:
    # A rate over fewer sessions than the threshold would claim more than it can show.
    share = f" ({100 * window.hits // window.sessions}%)" if window.sessions >= threshold else ""
    return f"{window.hits}/{window.sessions} sessions{share} over {window.days} days"


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> dict[str, Any]:
    ids = expand_short_ids(ctx.worktree, values.get("ids") or ())
    return {"ids": ids, "since": utc_timestamp(values.get("since"), "--since")}


OPERATION = Operation(
    spec=spec("impact"),
    request_model=ImpactRequest,
    response_model=ImpactResponse,
    handler=impact,
    cli_params=[
        click.Argument(["ids"], nargs=-1, metavar="[ID]..."),
        click.Option(
            ["--since"],
            metavar="WHEN",
            default=None,
            help="Count only sessions started since WHEN (2026-11-01, 30d, …).",
        ),
    ],
    from_cli=_from_cli,
    render_text=render,
    mcp_annotations={"idempotentHint": True},
)
