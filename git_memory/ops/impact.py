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
    """Measure each approved trap, rule and command against the session index (every
    agent and worktree; `--worktree`: this one): sessions before and after the commit of
    the entry's current text (found by text or author date on rewritten history). Command
    lines compare through the command model (argument shapes, compound lines, `cd`). Hits:
    a trap's command failed with its error, a rule's forbidden command ran without what it
    asks; followed: the fix first, what the rule asks. Verdicts: helped or worse (a rate
    moved 10 points beyond chance), not read (moved, but nothing put the entry before the
    agents), no change, too rare to tell, not relevant (never touched), not relevant since,
    too little data, uncommitted. A worktree's or a person's own verdict shows where it
    differs. Undated sessions are named. A
    correlation, not an experiment. IDs narrow it. Run `git memory sessions sync`
    first. Changes nothing.
    """
    response = measure_impact(
        ctx.worktree, request.ids, request.since, only_this_worktree=request.worktree
    )
    missing = sorted(set(request.ids) - {item.id for item in response.entries})
    if missing:
        raise entry_not_found(missing)
    return response


NOT_AN_EXPERIMENT = (
    "A landing is not an experiment: the code, the tasks and the people changed too; "
    "read a verdict as where to look."
)
_HITS = {"trap": "hit", "rule": "broke or re-asked", "command": "used a variant"}
_FOLLOWED = {"trap": "ran the fix first", "rule": "did what it asks", "command": "used it"}
_FOUND = {
    "content": "rewritten history: dated by the same text before the rewrite",
    "author date": "rewritten history: dated by the author date",
}


def render(response: ImpactResponse) -> str:
    """One line per entry: verdict, kind, id, the hits and the adoption before → after, the
    landing; then the sessions no window holds, what a verdict cannot tell, the summary."""
    lines = [_line(item, response.min_sessions) for item in response.entries]
    if response.undated:
        count = len(response.undated)
        lines.append(
            f"{count} session{'' if count == 1 else 's'} without a start time not counted: "
            + ", ".join(response.undated)
        )
    if any(item.before is not None for item in response.entries):
        lines.append(NOT_AN_EXPERIMENT)
    where = f" in {len(response.worktrees)} worktrees" if len(response.worktrees) > 1 else ""
    who = f" of {response.people} people" if response.people > 1 else ""
    lines.append(f"{response.sessions} sessions{who} read{where}; {response.summary}")
    return "\n".join(lines)


def _line(item: EntryImpact, threshold: int) -> str:
    head = f"{item.verdict:<18} {item.kind:<7} {item.id}"
    if item.before is None or item.after is None:
        return f"{head}: not committed on this branch yet"
    text = (
        f"{head}: {_HITS[item.kind]} in {_counts(item.before, item.before.hits, threshold)} "
        f"before → {_counts(item.after, item.after.hits, threshold)} after"
    )
    if item.kind != "rule" or item.before.followed or item.after.followed:
        text += (
            f"; {_FOLLOWED[item.kind]} in {_share(item.before, item.before.followed, threshold)}"
            f" → {_share(item.after, item.after.followed, threshold)}"
        )
    notes = [f"landed {(item.landed_at or '')[:10]}"]
    if item.first_landed_at:
        notes.append(f"text edited since it first landed {item.first_landed_at[:10]}")
    if item.landing_found in _FOUND:
        notes.append(_FOUND[item.landing_found])
    if item.split:
        split = ", ".join(f"{name} {verdict}" for name, verdict in item.split.items())
        notes.append(f"per worktree: {split}")
    if item.person_split:
        split = ", ".join(f"{name} {verdict}" for name, verdict in item.person_split.items())
        notes.append(f"per person: {split}")
    return f"{text} ({'; '.join(notes)})"


def _counts(window: ImpactWindow, count: int, threshold: int) -> str:
    return f"{_share(window, count, threshold)} over {window.days} days"


def _share(window: ImpactWindow, count: int, threshold: int) -> str:
    # A rate over fewer sessions than the threshold would claim more than it can show.
    rate = f" ({100 * count // window.sessions}%)" if window.sessions >= threshold else ""
    return f"{count}/{window.sessions} sessions{rate}"


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> dict[str, Any]:
    ids = expand_short_ids(ctx.worktree, values.get("ids") or ())
    return {
        "ids": ids,
        "since": utc_timestamp(values.get("since"), "--since"),
        "worktree": bool(values.get("worktree")),
    }


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
        click.Option(
            ["--worktree"],
            is_flag=True,
            default=False,
            help="Count only this worktree's sessions (default: every worktree's).",
        ),
    ],
    from_cli=_from_cli,
    render_text=render,
    mcp_annotations={"idempotentHint": True},
)
