"""`git memory harvest`: agents' own memory items become candidates in the review queue."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.agent_memory.status import agent_items
from git_memory.agent_memory.stores import STORES, enabled_stores
from git_memory.contracts.harvest import HarvestRequest, HarvestResponse
from git_memory.extract.builtin.harvest import HarvestOutcome
from git_memory.extract.builtin.harvest import harvest as run_harvest
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.ops.short_ids import ShortIds
from git_memory.store.session import open_workspace


def harvest(ctx: OpContext, request: HarvestRequest) -> HarvestResponse:
    """Offer for review what agents keep in their own memory for this worktree: Claude Code,
    Codex, Gemini CLI and Serena memories, and personal instruction files git does not track
    (docs/agent-memory.md lists every store).

    Each bullet or section becomes a quarantined candidate with evidence naming its store,
    item and content digest; `git memory review` confirms it and the promotion lint gate
    checks it like any other. An item already in approved memory is not offered; one
    harvested before is offered again only when its text changed, as an update. Stores are
    only read, never written. `memory.sources` (or --store) picks the stores.
    """

    if request.stores:
        specs = [store for store in STORES if store.name in request.stores]
    else:
        specs = enabled_stores(ctx.worktree.config_value("memory.sources"))
    with open_workspace(ctx.worktree) as workspace:
        outcome = run_harvest(workspace, specs)
    return harvest_response(outcome)


def harvest_response(outcome: HarvestOutcome) -> HarvestResponse:
    """The HarvestResponse document of one harvest (also part of `extract --runner builtin`)."""
    items: dict[str, int] = {}
    for _, item, _, _ in outcome.offered:
        items[item.store] = items.get(item.store, 0) + 1
    return HarvestResponse.model_validate(
        {
            "stores": [
                {"store": s.spec.name, "files": len(s.files), "items": items.get(s.spec.name, 0)}
                for s in outcome.stores
            ],
            "offered": [
                {
                    "candidateId": cid,
                    "store": item.store,
                    "item": item.key,
                    "contentDigest": item.digest,
                    "kind": kind,
                    "action": action,
                }
                for cid, item, kind, action in outcome.offered
            ],
            "unchanged": outcome.unchanged,
            "alreadyApproved": outcome.already_approved,
            "diagnostics": [
                {"store": d.store, "file": d.file, "code": d.code, "message": d.message}
                for d in outcome.diagnostics
            ],
        }
    )


def _from_cli(_ctx: OpContext, values: Mapping[str, Any]) -> dict[str, Any]:
    return {"stores": list(values.get("stores") or ())}


def _render(response: HarvestResponse, ids: ShortIds) -> str:
    if not response.stores:
        return "no agent memory found for this worktree (git memory doctor lists where it looked)"
    lines = [f"{s.store}: {s.files} file(s), {s.items} item(s) offered" for s in response.stores]
    shown = ids.of("candidate", [o.candidate_id for o in response.offered])
    for offer in response.offered:
        verb = "update" if offer.action == "update" else "new"
        lines.append(f"  {shown[offer.candidate_id]}  {verb} {offer.kind}  {offer.item}")
    lines += [f"skipped {d.store} {d.file}: {d.message}" for d in response.diagnostics]
    return "\n".join([*lines, summary(response)])


def summary(response: HarvestResponse) -> str:
    """The counts in the words `status` uses: what is to review, then what was left alone."""
    offered = len(response.offered)
    head = (
        f"{agent_items(offered)} to review, now in the review queue: git memory review"
        if offered
        else "no agent memory item to review"
    )
    alone = [
        f"{number} {words}"
        for number, words in (
            (response.already_approved, "already in approved memory"),
            (response.unchanged, "unchanged since a harvest"),
        )
        if number
    ]
    return head + (f" ({'; '.join(alone)})" if alone else "")


OPERATION = Operation(
    spec=spec("harvest"),
    request_model=HarvestRequest,
    response_model=HarvestResponse,
    handler=harvest,
    cli_params=[
        click.Option(
            ["--store", "stores"],
            multiple=True,
            help="Read only this store (repeatable; default: what memory.sources turns on).",
        ),
    ],
    from_cli=_from_cli,
    render_text_with_ids=_render,
)
