"""`git memory list [--type T] [--stale]`: approved memory as a table, with freshness."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.lifecycle import (
    FreshnessCounts,
    ListedEntry,
    ListRequest,
    ListResponse,
    VerifyReason,
)
from git_memory.ids import MIN_TYPED, abbreviate_within
from git_memory.impact.report import impact
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.recorded_answers import answer_before, record_answer_after
from git_memory.ops.registry import spec
from git_memory.verify.check import Verifier, counts, verify_memory

FIRST_LINE = 72
# Every command that takes an entry id resolves a unique prefix (verify/check.py).
PREFIX_NOTE = (
    f"an id may be typed as any unique prefix of it ({MIN_TYPED} characters or more):"
    " git memory verify ID, git memory retire ID --reason TEXT"
)
ENTRY_TYPES = ("work_fact", "work_task", "work_method", "work_artifact")


def list_memory(ctx: OpContext, request: ListRequest) -> ListResponse:
    """List the approved entries of this worktree, highest priority first: id (whole; any
    unique prefix of it works too), type, priority, claim support, the last day it occurred,
    freshness (as `git memory verify` decides it) and the first line of its text. --type
    keeps one entry type; --stale keeps only stale entries; --impact adds each trap's,
    rule's and command's verdict from `git memory impact` and the team's summary line.
    Deprecated entries are not listed. Changes nothing."""
    name = _recorded_name(request)
    before = answer_before(ctx.worktree, name) if name else None
    verifier = Verifier.for_worktree(ctx.worktree)
    checked = [
        item for item in verify_memory(ctx.worktree, verifier=verifier) if item.kind == "entry"
    ]
    shown = [
        item
        for item in checked
        if item.entry is not None
        and (request.type is None or item.entry.type == request.type)
        and (not request.stale or item.state == "stale")
    ]
    shown.sort(key=lambda item: (-item.entry.priority if item.entry else 0, item.id))
    every = [item.id for item in checked]  # the ids `verify` and `retire` resolve against
    short = abbreviate_within((item.id for item in shown), every)  # an entry id: whole
    listed = [_listed(item, short[item.id]) for item in shown]
    summary = None
    if request.impact:
        measured = impact(ctx.worktree)
        verdicts = {item.id: item.verdict for item in measured.entries}
        listed = [e.model_copy(update={"impact": verdicts.get(e.id)}) for e in listed]
        summary = f"impact over {measured.sessions} sessions: {measured.summary}"
    response = ListResponse(
        entries=listed, counts=FreshnessCounts(**counts(checked)), impact_summary=summary
    )
    kinds, texts = verifier.manifests.consulted()
    record_answer_after(ctx.worktree, before, render(response), sorted({*kinds, *texts}))
    return response


def _recorded_name(request: ListRequest) -> str | None:
    """The name the console script's fast path knows this form by (cli/entry.py)."""
    if request.type is not None or request.impact:
        return None  # the impact figures read the session index, which no record watches
    return "list-stale" if request.stale else "list"


def _listed(item: Any, short_id: str) -> ListedEntry:
    entry = item.entry
    return ListedEntry(
        id=item.id,
        short_id=short_id,
        type=entry.type,
        priority=entry.priority,
        claim_support=entry.claim_support,
        last_occurred=max(entry.occurred) if entry.occurred else None,
        freshness=item.state,
        first_line=first_line(entry.body),
        path=item.path,
        reasons=[VerifyReason(**vars(reason)) for reason in item.reasons],
    )


def first_line(body: str) -> str:
    """The first non-blank line of `body` without Markdown heading marks, shortened."""
    for line in body.split("\n"):
        text = line.strip().lstrip("#").strip()
        if text:
            return text if len(text) <= FIRST_LINE else text[: FIRST_LINE - 1] + "…"
    return ""


def render(response: ListResponse) -> str:
    """A fixed-width table, then the counts."""
    if not response.entries:
        rows = ["no approved memory matches"]
    else:
        width = max(len(e.short_id) for e in response.entries)
        header = f"{'ID':<{width}}  {'TYPE':<13} PRI {'SUPPORT':<15} {'LAST':<10} {'FRESH':<12}"
        if response.impact_summary is not None:
            header += f" {'IMPACT':<18}"
        rows = [header + " FIRST LINE"]
        for e in response.entries:
            impact = f"{e.impact or '-':<18} " if response.impact_summary is not None else ""
            rows.append(
                f"{e.short_id:<{width}}  {e.type:<13} {e.priority:>3} {e.claim_support:<15} "
                f"{e.last_occurred or '-':<10} {e.freshness:<12} {impact}{e.first_line}"
            )
    counts = response.counts
    rows.append(
        f"{counts.total} approved: {counts.fresh} fresh, {counts.stale} stale, "
        f"{counts.unverifiable} unverifiable"
    )
    if response.entries:
        rows.append(PREFIX_NOTE)
    if response.impact_summary is not None:
        rows.append(response.impact_summary)
    return "\n".join(rows)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "type": values.get("entry_type"),
        "stale": bool(values.get("stale")),
        "impact": bool(values.get("impact")),
    }


OPERATION = Operation(
    spec=spec("list"),
    request_model=ListRequest,
    response_model=ListResponse,
    handler=list_memory,
    cli_params=[
        click.Option(
            ["--type", "entry_type"],
            type=click.Choice(ENTRY_TYPES),
            default=None,
            help="Only entries of this type.",
        ),
        click.Option(["--stale"], is_flag=True, help="Only stale entries."),
        click.Option(
            ["--impact"],
            is_flag=True,
            help="Add each trap's, rule's and command's impact verdict (git memory impact).",
        ),
    ],
    from_cli=_from_cli,
    render_text=render,
)
