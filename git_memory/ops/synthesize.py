"""`git memory synthesize [--if-due | --full]`: the consolidation task for the agent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.consolidate.synthesis import synthesize as run
from git_memory.contracts.consolidation import Synthesis
from git_memory.contracts.consolidation_ops import SynthesizeRequest
from git_memory.errors import UsageError
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.ops.short_ids import ShortIds
from git_memory.store.session import open_workspace


def synthesize(ctx: OpContext, request: SynthesizeRequest) -> Synthesis:
    """Return a ConsolidationTask over approved memory for you (the agent) to answer.

    The task holds the approved entries that are new or changed since the last successful
    consolidation (`--full`: all of them), every current scene with its host-computed heat,
    the doctrine, the capacity policy (15 scenes; merge preferred from 12, no create from 14)
    and a binding. Answer with a ConsolidationPatch@v1 that echoes taskId and binding and stage
    it with `git memory stage`; each operation is then reviewed and promoted like an entry.
    `--if-due` returns a task only when at least 20 approved entries are new or changed
    (otherwise it says so). A run waiting for review blocks a new task.
    """
    with open_workspace(ctx.worktree) as workspace:
        return run(workspace, "full" if request.full else "incremental", if_due=request.if_due)


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> dict[str, Any]:
    if values["if_due"] and values["full"]:
        raise UsageError("GM_USAGE", "--if-due and --full exclude each other")
    return {"ifDue": values["if_due"], "full": values["full"]}


def _render(response: Synthesis, ids: ShortIds) -> str:
    if response.task is None:
        return response.note or "nothing to consolidate"
    task = response.task
    lines = [
        f"consolidation task {ids.one('task', task.task_id)}: {len(task.entries)} entr(y/ies), "
        f"{len(task.scenes)} scene(s), doctrine {'present' if task.doctrine else 'absent'}",
        "use --format json to read the task; stage the ConsolidationPatch with `git memory stage`",
    ]
    return "\n".join(lines)


REPLAY_PARAMS: list[click.Parameter] = [
    click.Option(
        ["--if-due", "if_due"],
        is_flag=True,
        help="Only when at least 20 approved entries are new or changed.",
    ),
    click.Option(["--full"], is_flag=True, help="Take every approved entry, not only new ones."),
]

OPERATION = Operation(
    spec=spec("synthesize"),
    request_model=SynthesizeRequest,
    response_model=Synthesis,
    handler=synthesize,
    cli_params=REPLAY_PARAMS,
    from_cli=_from_cli,
    render_text_with_ids=_render,
)
