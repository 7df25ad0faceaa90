"""`git memory consolidate --runner NAME [--if-due | --full]`: consolidation through a runner."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.consolidate.runner_flow import consolidate as run
from git_memory.contracts.consolidation_ops import (
    ConsolidatePreviewRequest,
    ConsolidateRequest,
    ConsolidateResult,
)
from git_memory.errors import UsageError
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.ops.synthesize import REPLAY_PARAMS
from git_memory.store.session import open_workspace


def consolidate(ctx: OpContext, request: ConsolidateRequest) -> ConsolidateResult:
    """Send the consolidation task (as `synthesize` builds it) to a runner and stage the
    ConsolidationPatch it answers, then review, prepare and promote as usual.

    Nothing is sent before the RunnerExecutionPlan (exact bytes, provider, model, endpoint)
    is approved: interactively at a terminal, or with `--approve-plan DIGEST`. Without an
    approval the pending plan is returned (over MCP this is a preview only: it never sends).
    `--if-due` runs only when at least 20 approved entries are new or changed.
    """
    with open_workspace(ctx.worktree) as workspace:
        return run(workspace, request, ctx.confirm)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> dict[str, Any]:
    if not values["runner"]:
        raise UsageError("GM_USAGE", "--runner is required (claude, codex or command)")
    if values["if_due"] and values["full"]:
        raise UsageError("GM_USAGE", "--if-due and --full exclude each other")
    if values["approve_plan"] and values["approve_manifest"]:
        raise UsageError("GM_USAGE", "pass either --approve-plan or --approve-manifest")
    document = {
        "runner": values["runner"],
        "runnerCommand": values["runner_command"],
        "model": values["runner_model"],
        "endpoint": values["runner_endpoint"],
        "ifDue": values["if_due"],
        "full": values["full"],
        "approvePlan": values["approve_plan"],
        "approveManifest": values["approve_manifest"],
    }
    return {key: value for key, value in document.items() if value is not None}


def _render(response: ConsolidateResult) -> str:
    lines = [f"consolidate: {response.status}"]
    for plan in response.plans:
        lines.append(
            f"  plan {plan['planDigest']} task {plan['taskId']}: {plan['bytesToSend']} bytes "
            f"to {plan['provider']}"
        )
    if response.note:
        lines.append(response.note)
    return "\n".join(lines)


OPERATION = Operation(
    spec=spec("consolidate"),
    request_model=ConsolidateRequest,
    response_model=ConsolidateResult,
    handler=consolidate,
    cli_params=[
        click.Option(
            ["--runner"],
            type=click.Choice(["claude", "codex", "command", "builtin"]),
            help="The runner that answers the task.",
        ),
        click.Option(["--runner-command", "runner_command"], help="Command runner argv."),
        click.Option(["--runner-model", "runner_model"], help="Pinned model (codex, command)."),
        click.Option(["--runner-endpoint", "runner_endpoint"], help="https endpoint."),
        *REPLAY_PARAMS,
        click.Option(["--approve-plan", "approve_plan"], metavar="DIGEST", help="Approve a plan."),
        click.Option(
            ["--approve-manifest", "approve_manifest"], metavar="DIGEST", help="Approve a manifest."
        ),
    ],
    from_cli=_from_cli,
    render_text=_render,
    exit_code=lambda response: 1 if response.status == "approval-required" else 0,
    mcp_request_model=ConsolidatePreviewRequest,
    mcp_summary="Preview the runner plan of a consolidation; nothing is sent.",
    mcp_description=(
        "Build the consolidation task as `git memory consolidate --runner NAME` would and "
        "store its pending RunnerExecutionPlan (digests, byte counts, coverage). Nothing is "
        "sent and nothing can be approved here: the human approves and delivers on the "
        "command line. To consolidate with the agent in this conversation, use "
        "memory_synthesize."
    ),
    # Over MCP it only stores a pending plan: nothing is sent, nothing outside is touched.
    mcp_annotations={"destructiveHint": False, "openWorldHint": False},
)
