"""`git memory recall`: sealed turns of this worktree as extraction tasks for the agent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.recall import AgentRecall
from git_memory.contracts.requests import RecallRequest
from git_memory.errors import UsageError
from git_memory.extract.recall_flow import recall as run_recall
from git_memory.extract.select import capability_key
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.ops.short_ids import ShortIds
from git_memory.ops.timeflags import utc_timestamp
from git_memory.store.session import open_workspace


def recall(ctx: OpContext, request: RecallRequest) -> AgentRecall:
    """Select this worktree's sealed turns in an explicit UTC window and return up to
    `limit` pending ExtractionTasks, with the approved memory and skills to build on.

    Nothing leaves the machine: the agent in the current conversation reads the tasks, drafts
    candidates citing their evidence ids and stages them with `git memory stage`. More than
    200 matching turns is refused (GM_QUERY_TOO_BROAD) with counts per day and provider.
    """
    with open_workspace(ctx.worktree) as workspace:
        return run_recall(workspace, request)


def _csv(value: str | None) -> list[str] | None:
    return [item.strip() for item in value.split(",") if item.strip()] if value else None


def request_from_cli(
    values: Mapping[str, Any], window: dict[str, str] | None = None
) -> dict[str, Any]:
    """The MemoryExtractionRequest document of the shared selection flags (`window`, when
    given, stands for --since/--until)."""
    if window is None and (not values.get("since") or not values.get("until")):
        raise UsageError(
            "GM_USAGE",
            "--since and --until are required (or pass --request)",
            hint="e.g. --since 2026-11-01 --until 2026-12-01",
        )
    filters: dict[str, Any] = {}
    if values.get("providers"):
        filters["providers"] = _csv(values["providers"])
    if values.get("session_keys"):
        filters["sessionKeys"] = _csv(values["session_keys"])
    if values.get("tools"):
        filters["toolCapabilityKeys"] = sorted(
            {capability_key("tool", n) for n in _csv(values["tools"]) or []}
        )
    if values.get("skills"):
        filters["skillCapabilityKeys"] = sorted(
            {capability_key("skill", n) for n in _csv(values["skills"]) or []}
        )
    if values.get("result_states"):
        filters["capabilityTerminalStates"] = _csv(values["result_states"])
    document: dict[str, Any] = {
        "format": "git-memory-extraction-request@v1",
        "window": window
        or {
            "after": utc_timestamp(values["since"], "--since"),
            "before": utc_timestamp(values["until"], "--until"),
        },
    }
    if values.get("query"):
        document["query"] = values["query"]
    if filters:
        document["filters"] = filters
    return document


SELECTION_PARAMS: list[click.Parameter] = [
    click.Option(
        ["--since"],
        metavar="TIME",
        help="Window start (inclusive): a date (2026-11-01, UTC), an ISO timestamp or a "
        "relative form (7d, 2w, 12h, yesterday).",
    ),
    click.Option(["--until"], metavar="TIME", help="Window end (exclusive), same forms."),
    click.Option(["--query"], help="Full-text query over visible text and tool names."),
    click.Option(
        ["--providers"],
        metavar="LIST",
        help=(
            "Comma list of claude, codex, gemini-cli, qwen-code, opencode, copilot-cli, cursor,"
            " antigravity."
        ),
    ),
    click.Option(
        ["--session-keys", "session_keys"],
        metavar="LIST",
        help="Comma list of session keys (see `git memory sessions list`).",
    ),
    click.Option(["--tools"], metavar="LIST", help="Only turns that used one of these tools."),
    click.Option(["--skills"], metavar="LIST", help="Only turns that loaded one of these skills."),
    click.Option(
        ["--result-states", "result_states"],
        metavar="LIST",
        help="Only turns with a tool result in these states (completed, failed, …); "
        "needs --tools or --skills.",
    ),
]


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "format": "git-memory-recall-request@v1",
        "request": request_from_cli(values),
        "limit": values["limit"],
    }


EXTRACTION_REQUEST_FORMAT = "git-memory-extraction-request@v1"


def _from_request_file(ctx: OpContext, document: Any, values: Mapping[str, Any]) -> Any:
    """A bare MemoryExtractionRequest file is taken with `--limit`; a RecallRequest as is."""
    if isinstance(document, dict) and document.get("format") == EXTRACTION_REQUEST_FORMAT:
        return {
            "format": "git-memory-recall-request@v1",
            "request": document,
            "limit": values["limit"],
        }
    return document


def _render(response: AgentRecall, ids: ShortIds) -> str:
    lines = [
        f"{len(response.tasks)} task(s); {response.selection.pending_chunks} pending "
        f"chunk(s) in {response.selection.matched_sessions} session(s)"
    ]
    shown = ids.of("task", (task.task_id for task in response.tasks))
    for task in response.tasks:
        lines.append(
            f"  {shown[task.task_id]}  turns {task.chunk.turn_range.start}-"
            f"{task.chunk.turn_range.end}, {len(task.evidence_catalog)} evidence items"
        )
    if response.note:
        lines.append(response.note)
    lines.append("use --format json to read the tasks; stage answers with `git memory stage`")
    return "\n".join(lines)


OPERATION = Operation(
    spec=spec("recall"),
    request_model=RecallRequest,
    response_model=AgentRecall,
    handler=recall,
    cli_params=[
        *SELECTION_PARAMS,
        click.Option(
            ["--limit"],
            type=click.IntRange(1, 8),
            default=1,
            show_default=True,
            help="How many pending tasks to return.",
        ),
    ],
    from_cli=_from_cli,
    from_request_file=_from_request_file,
    render_text_with_ids=_render,
)
