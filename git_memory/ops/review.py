"""`git memory review`: the quarantine queue, and fast confirmation at a terminal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory import output
from git_memory.contracts.requests import ReviewRequest
from git_memory.contracts.review import Review, ReviewItem
from git_memory.extract.review_flow import (
    Decisions,
    Narrowing,
    bulk_confirmable,
    directive_lines,
    held_by_open_plans,
    interactive,
    prepare_request,
    queue,
    quote_lines,
    replaced_lines,
    support_warning,
)
from git_memory.formats.controls import escape_controls
from git_memory.ops.base import OpContext, Operation, load_operation
from git_memory.ops.promote import render as render_promoted
from git_memory.ops.registry import spec
from git_memory.ops.short_ids import ShortIds
from git_memory.store.session import open_workspace


def review(ctx: OpContext, request: ReviewRequest) -> Review:
    """List quarantined candidates, the best corroborated first: every statement with its
    claim support, provenance, the two digests `prepare` must echo, and excerpts of the
    evidence it cites with the quoted words that back it: under a command fact the command
    as run and its observed result line, under a rule the person's words with the turn's
    date, each marked with where it came from (typed by a person, a pasted document, a
    program's prompt, the agent's own words, a tool's output). A statement no person's words
    back says so.

    At a terminal (text output) review is interactive and finishes the job: typed facts are
    confirmed together with one key (or one by one), each other statement takes one key
    (confirm / discard / skip / quit), every item is shown beside its evidence, and at the end
    the confirmed candidates become a promotion plan whose diff is shown and, when you say
    yes, written into the memory root. Content that tells agents to act beyond a memory's
    role (fetch and run code, send data out, read credentials, switch checks off, hide
    actions, override instructions) is shown as such (`directives`, `GM_DIRECTIVE_*`) and
    written only when you keep it explicitly; `prepare` refuses it otherwise
    (`GM_DIRECTIVE_UNCONFIRMED`). Candidates already in an open plan are not asked
    again. An entry whose evidence lies below one directory shows where it applies: keep that
    scope, widen it to the whole repository or narrow it to a directory below; an entry for
    everywhere can be confirmed for one directory only ((p)ath), and the entry file carries
    `scope: path:<dir>`. `--confirm-typed-facts` does the typed-fact step without asking and
    prepares the plan. Only typed facts that show their observed run are confirmed together;
    everything else is decided one by one. JSON output never confirms anything.
    """

    with open_workspace(ctx.worktree) as workspace:
        items = queue(workspace, request.kind)
        if not (ctx.confirm_typed_facts or ctx.interactive):
            return Review.model_validate({"kind": request.kind, "items": items})
        held = held_by_open_plans(workspace)
        _say_held(held, ShortIds(ctx.worktree, workspace))
    # Confirming runs discard, prepare and promote, each an operation with its workspace:
    # this one is closed meanwhile and the queue read again after them.
    _confirm(ctx, [item for item in items if item.candidate_id not in held])
    with open_workspace(ctx.worktree) as workspace:
        items = queue(workspace, request.kind)
        if ctx.interactive:
            # What still waits after the session: a plan kept for later holds the rest.
            held = held_by_open_plans(workspace)
            items = [item for item in items if item.candidate_id not in held]
    return Review.model_validate(
        {"kind": request.kind, "items": items, "afterAnswers": ctx.interactive or None}
    )


def _say_held(held: dict[str, str], ids: ShortIds) -> None:
    shown = ids.of("plan", held.values())
    for plan_id in sorted(set(held.values())):
        count = sum(1 for holder in held.values() if holder == plan_id)
        output.echo(
            f"{count} confirmed candidate(s) wait in plan {shown[plan_id]}; write them with:"
            f" git memory promote --plan {shown[plan_id]}",
            err=True,
        )


def _confirm(ctx: OpContext, items: list[ReviewItem]) -> None:
    if not items:
        return
    if ctx.interactive:

        def say(text: str) -> None:
            output.echo(escape_controls(text))

        narrowing = Narrowing(ctx.worktree.root, output.prompt_line)
        decisions = interactive(items, output.prompt_choice, say, narrowing)
    else:
        decisions = Decisions(confirmed=[item for item in items if bulk_confirmable(item)])
    discard = load_operation("discard")
    for item in decisions.discarded:
        discard.invoke(ctx, {"candidateId": item.candidate_id, "revision": item.revision})
    output.echo(
        f"confirmed {len(decisions.confirmed)}, discarded {len(decisions.discarded)}, "
        f"skipped {decisions.skipped}",
        err=True,
    )
    _prepare_confirmed(ctx, decisions.confirmed, decisions.scopes, decisions.directives)


def _prepare_confirmed(
    ctx: OpContext,
    confirmed: list[ReviewItem],
    scopes: dict[str, str],
    directives: dict[str, list[str]] | None = None,
) -> None:
    ids = ShortIds(ctx.worktree)
    by_kind: dict[str, list[ReviewItem]] = {}
    for item in confirmed:
        by_kind.setdefault(item.kind, []).append(item)
    prepare = load_operation("prepare")
    for kind, items in sorted(by_kind.items()):
        plan = prepare.invoke(ctx, prepare_request(items, kind, scopes, directives))
        plan_id = ids.one("plan", plan.plan_id)
        later = f"git memory promote --plan {plan_id}"
        if not ctx.interactive:
            output.echo(
                f"prepared plan {plan_id} for {len(items)} {kind} candidate(s); "
                f"apply it with: {later} --approve {plan.plan_digest}",
                err=True,
            )
            continue
        output.echo(plan.diff, err=True)
        question = (
            f"Write these {len(plan.per_file)} file(s) into {ctx.worktree.memory_root}/ now"
            f" (and regenerate {ctx.worktree.memory_root}/index.json)?"
        )
        if output.confirm(question):
            promoted = load_operation("promote").invoke(
                ctx, {"plan": plan.plan_id, "approve": plan.plan_digest}
            )

            output.echo(render_promoted(promoted, ids), err=True)
        else:
            output.echo(f"plan {plan_id} kept; write it later with: {later}", err=True)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> dict[str, Any]:
    ctx.confirm_typed_facts = bool(values["confirm_typed_facts"])
    return {"kind": values["kind"]}


def _render(response: Review, ids: ShortIds) -> str:
    if not response.items:
        return "nothing to review"
    shown = ids.of("candidate", (item.candidate_id for item in response.items))
    if response.after_answers:
        return _still_waiting(response.items, shown)
    lines = []
    for item in response.items:
        lines.append(
            f"{shown[item.candidate_id]} r{item.revision} [{item.kind}] {item.content.strip()}"
        )
        lines += replaced_lines(item, "  ")
        lines += directive_lines(item, "  ")
        for statement in item.statements:
            marker = f"[{statement.claim_support}, {statement.provenance_strength}]"
            if "\n" in statement.text:  # a proposed file or diff: the marker stays outside it
                lines.append(f"  {statement.statement_id} {marker}:")
                lines += [f"    {line}" for line in statement.text.splitlines()]
            else:
                lines.append(f"  {statement.statement_id}: {statement.text} {marker}")
            warning = support_warning(statement)
            if warning:
                lines.append(f"      ! {warning}")
            for evidence in statement.evidence:
                excerpt = f" — {evidence.excerpt}" if evidence.excerpt else ""
                lines.append(f"      evidence {evidence.display}{excerpt}")
                lines += quote_lines(evidence, "        ")
    return "\n".join(lines)


def _still_waiting(items: list[ReviewItem], shown: dict[str, str]) -> str:
    """The end of a review at a terminal: what it left in the queue, one line each."""
    count = len(items)
    lines = [
        f"{count} candidate{'' if count == 1 else 's'} still wait{'s' if count == 1 else ''}"
        " for review (skipped this time):"
    ]
    lines += [f"  {shown[item.candidate_id]}  {_one_line(item.content)}" for item in items]
    lines.append("decide them later with: git memory review")
    return "\n".join(lines)


def _one_line(text: str) -> str:
    first = text.strip().split("\n", 1)[0]
    return first if len(first) <= 120 else first[:119] + "…"


OPERATION = Operation(
    spec=spec("review"),
    request_model=ReviewRequest,
    response_model=Review,
    handler=review,
    cli_params=[
        click.Option(
            ["--kind"],
            type=click.Choice(["entry", "skill", "consolidation"]),
            default=None,
            help="Only this kind of candidate.",
        ),
        click.Option(
            ["--confirm-typed-facts", "confirm_typed_facts"],
            is_flag=True,
            help="Confirm every typed fact without asking and prepare a plan.",
        ),
    ],
    from_cli=_from_cli,
    render_text_with_ids=_render,
)
