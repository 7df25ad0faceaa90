"""`git memory retire ID… --reason TEXT [--by ID]`: a reviewed plan that deprecates entries."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.lifecycle import RetireRequest
from git_memory.contracts.promotion_ops import PreparedPlan
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.prepare import prepared, render
from git_memory.ops.registry import spec
from git_memory.promote.retire import plan_retirement
from git_memory.store.session import open_workspace
from git_memory.verify.check import expand_short_ids


def retire(ctx: OpContext, request: RetireRequest) -> PreparedPlan:
    """Prepare a promotion plan that retires approved entries (nothing is written yet).

    Each entry is rewritten with `status: deprecated`, `superseded_by: ID` when --by names
    the approved entry that replaces it, and the reason as its last paragraph; it stays in
    the memory root, leaves assembled context and is marked `deprecated` in search. The plan
    is lint-gated, bound to each file's current blob OID and stored; apply it like any plan with
    `git memory promote --plan ID` (the diff is shown and approved by its digest; over MCP
    memory_promote asks the human). An ID (and --by) may be any unique prefix of an entry id.
    Unknown ids:
    GM_ENTRY_NOT_FOUND; an entry already deprecated or a --by that is not approved:
    GM_RETIRE_INVALID.
    """
    with open_workspace(ctx.worktree, sync=False) as workspace:
        plan = plan_retirement(workspace, request)
    return prepared(plan)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> dict[str, Any]:
    ids = expand_short_ids(ctx.worktree, values.get("ids") or ())
    by = values.get("by")
    if by:
        (by,) = expand_short_ids(ctx.worktree, [by])
    return {"ids": ids, "reason": values.get("reason") or "", "by": by}


OPERATION = Operation(
    spec=spec("retire"),
    request_model=RetireRequest,
    response_model=PreparedPlan,
    handler=retire,
    cli_params=[
        click.Argument(["ids"], nargs=-1, metavar="ID..."),
        click.Option(["--reason"], help="Why, recorded in each entry (one line; required)."),
        click.Option(["--by"], metavar="ID", default=None, help="The entry that replaces them."),
    ],
    from_cli=_from_cli,
    render_text_with_ids=render,
    mcp_description=(
        "Prepare a plan that retires approved entries (status: deprecated, superseded_by when "
        "`by` is given, the reason recorded in the entry). Nothing is written: show the human "
        "the diff, then apply it with memory_promote, which asks the human when this client "
        "can show forms."
    ),
)
