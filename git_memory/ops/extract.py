"""`git memory extract --runner NAME`: extraction and adjudication through a runner."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

import click
from pydantic import Field

from git_memory import output
from git_memory.agent_memory.stores import enabled_stores
from git_memory.contracts.base import Hex64, Model
from git_memory.contracts.extraction import MemoryExtractionRequest, TimeWindow, is_absent
from git_memory.contracts.harvest import HarvestResponse
from git_memory.errors import GitMemoryError, UsageError
from git_memory.extract import window
from git_memory.extract.builtin.harvest import harvest as harvest_stores
from git_memory.extract.offering import LIMIT_KEY, Offered, offer
from git_memory.extract.pipeline import BatchOutcome, preview_batch, run_batch
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.harvest import harvest_response
from git_memory.ops.harvest import summary as harvest_summary
from git_memory.ops.recall import EXTRACTION_REQUEST_FORMAT, SELECTION_PARAMS, request_from_cli
from git_memory.ops.registry import spec
from git_memory.ops.short_ids import ShortIds
from git_memory.runners.profiles import RunnerOptions
from git_memory.runners.runner import DeliveryApproval
from git_memory.sessions.listing import oldest_start
from git_memory.store.candidates import list_candidates, review_queue
from git_memory.store.session import Workspace, open_workspace


class ExtractRunnerRequest(Model):
    """Which runner, what to select, and the approval (a plan or manifest digest)."""

    format: Literal["git-memory-extract-runner-request@v1"] = "git-memory-extract-runner-request@v1"
    runner: Literal["builtin", "claude", "codex", "command"]
    runner_command: str | None = None
    runner_model: str | None = None
    runner_endpoint: str | None = None
    request: MemoryExtractionRequest
    # A window longer than one request allows (366 days) is split: `request.window` is the
    # oldest part and these follow it, oldest first; one run goes through them in order.
    later_windows: list[TimeWindow] = Field(default_factory=list)
    # The builtin runner takes every pending task by default; a model runner one per run.
    limit: Annotated[int, Field(ge=1)] | None = None
    approve_plan: Hex64 | None = None
    approve_manifest: Hex64 | None = None


class ExtractPreviewRequest(Model):
    """`memory_extract_preview`: plan the runner deliveries of a selection; never sends."""

    runner: Literal["claude", "codex", "command"]
    request: MemoryExtractionRequest
    runner_model: str | None = None
    runner_endpoint: str | None = None
    limit: Annotated[int, Field(ge=1, le=8)] = 1


class SkippedSessions(Model):
    """Sessions of the window an eligibility rule left out, and why."""

    reason: str
    sessions: int


class AddedCandidate(Model):
    """A candidate this run left waiting for review, with the text a reviewer reads."""

    candidate_id: str
    content: str


class SessionNote(Model):
    """One session of the window and why it added nothing: left out, or read with nothing
    new or nothing to keep."""

    session_key: str
    note: str


class ExtractRunnerResponse(Model):
    """The tasks this run answered and the candidates now waiting for review; a preview
    lists the pending plans (digests and byte counts, no transcript) instead."""

    format: Literal["git-memory-extract-runner@v1"] = "git-memory-extract-runner@v1"
    runner: str
    extracted: list[str]
    adjudicated: list[str]
    quarantined: list[str]
    plans: list[dict[str, Any]] = Field(default_factory=list)
    manifest: dict[str, Any] | None = None
    window: dict[str, str] | None = None
    sessions: int = 0
    skipped: list[SkippedSessions] = Field(default_factory=list)
    remaining: int = 0
    # Builtin: candidates staged and not yet offered for review (`memory.extractLimit` per
    # run); a later run offers them, the highest rank first.
    waiting: int = 0
    next: str
    added: list[AddedCandidate] = Field(default_factory=list)
    session_notes: list[SessionNote] = Field(default_factory=list)
    # What `--runner builtin` offered from agents' own memory stores (`memory.sources` picks
    # them), present when it found any store for this worktree.
    harvest: HarvestResponse | None = Field(default=None, exclude_if=is_absent)


def extract(
    ctx: OpContext, request: ExtractRunnerRequest | ExtractPreviewRequest
) -> ExtractRunnerResponse:
    """Send the extraction tasks of a selection (then their adjudication) to a restricted,
    tool-less runner. `--runner builtin` answers in process with no model: commands that
    work, traps and their fix, and the rules the user stated (in any of nine languages),
    each proposed once for the whole window and ranked by the sessions and people that show
    it; it sends nothing, needs no approval and takes every pending task of the window in
    one run (`--limit N` caps it). It offers review at most `memory.extractLimit` (20) new
    candidates per run, the best corroborated first, and says how many more wait: the next
    run offers them. Without --since/--until it takes everything
    since this worktree's last extraction (the last 30 days the first time); --since takes
    a date, an ISO time or a relative form (7d, 2w, 12h, yesterday), and a window longer
    than 366 days is extracted as consecutive parts in one run, with progress. For model
    runners nothing is sent before its RunnerExecutionPlan is approved: on a TTY
    you are asked; otherwise pass --approve-plan DIGEST or --approve-manifest DIGEST (exit 1
    with GM_APPROVAL_REQUIRED lists the pending plans). Re-run the same command to continue:
    the adjudication is a separate delivery with its own plan. Answers are held to the
    agent-native rules and land quarantined for `git memory review`. The text output lists
    each candidate added with its text and, per session of the window that added nothing,
    why: left out (too few sealed turns, still active), or read with nothing new (already
    approved or proposed) or nothing to keep (no command with an observed result, no fixed
    failure, no rule a person typed; a session a program drove gives no rules). The builtin
    runner also harvests the agents' own memory (see `git memory harvest`)."""
    if isinstance(request, ExtractPreviewRequest):
        return _preview(ctx, request)
    with open_workspace(ctx.worktree) as workspace:
        return _extract(ctx, workspace, request)


def _extract(
    ctx: OpContext, workspace: Workspace, request: ExtractRunnerRequest
) -> ExtractRunnerResponse:
    """Every part of the window in turn, through one workspace."""
    options = RunnerOptions(
        request.runner, request.runner_command, request.runner_model, request.runner_endpoint
    )
    builtin = request.runner == "builtin"
    approval = DeliveryApproval(request.approve_plan, request.approve_manifest, ctx.confirm)
    parts = [request.request.window, *request.later_windows]
    outcome = BatchOutcome()
    with output.progress("extracting windows", len(parts) if len(parts) > 1 else 0) as shown:
        for part in parts:
            selection = request.request.model_copy(update={"window": part})
            found = run_batch(
                workspace,
                options,
                selection,
                limit=request.limit if builtin else min(request.limit or 1, MAX_MODEL_TASKS),
                approval=approval,
            )
            outcome.add(found)
            shown.advance()
            if builtin and found.left:
                break  # --limit is spent: the next run starts here
            if builtin:
                window.remember(workspace.db, workspace.owner, window.from_request(part))
            elif found.extracted or found.adjudicated or found.quarantined:
                break  # a model runner delivers one approved part per run
    offered = offer(workspace) if builtin else Offered(outcome.quarantined, 0)
    harvested = _harvest(ctx, workspace, offered.candidate_ids) if builtin else None
    span = {"after": parts[0].after, "before": parts[-1].before}
    return ExtractRunnerResponse(
        runner=request.runner,
        extracted=outcome.extracted,
        adjudicated=outcome.adjudicated,
        quarantined=offered.candidate_ids,
        window=span,
        sessions=outcome.sessions,
        skipped=[SkippedSessions(reason=r, sessions=n) for r, n in outcome.skipped],
        remaining=outcome.left,
        waiting=offered.waiting,
        next=_next(workspace, outcome, offered.waiting) if builtin else _next_model(outcome),
        added=_added(workspace, offered.candidate_ids),
        session_notes=[SessionNote(session_key=k, note=n) for k, n in outcome.session_notes],
        harvest=harvested,
    )


def _harvest(ctx: OpContext, workspace: Workspace, offered: list[str]) -> HarvestResponse | None:
    """Offer the agents' own memory items as `git memory harvest` does; what it offered
    joins this run's candidates. None when no enabled store exists for this worktree."""
    found = harvest_stores(workspace, enabled_stores(ctx.worktree.config_value("memory.sources")))
    if not found.stores:
        return None
    offered += [candidate_id for candidate_id, *_ in found.offered]
    return harvest_response(found)


def _added(workspace: Workspace, candidate_ids: list[str]) -> list[AddedCandidate]:
    """The text of each candidate this run quarantined, in the run's order."""
    if not candidate_ids:
        return []
    found = list_candidates(workspace.db, workspace.owner, statuses=("quarantined",))
    content = {c.candidate_id: str(c.payload.get("content", c.summary)) for c in found}
    return [
        AddedCandidate(candidate_id=cid, content=content[cid].strip())
        for cid in candidate_ids
        if cid in content
    ]


def _next_model(outcome: BatchOutcome) -> str:
    return "nothing new to review" if not outcome.quarantined else "git memory review"


def _next(workspace: Workspace, outcome: BatchOutcome, held: int) -> str:
    """The true next step: review when anything waits, else what happened and why (`held`:
    candidates not offered yet)."""
    waiting = len(review_queue(workspace.db, workspace.owner))
    more = f"; {held} more wait for the next extract run" if held else ""
    if waiting:
        return f"git memory review ({waiting} candidate(s) waiting{more})"
    if held:
        return f"git memory extract --runner builtin ({held} candidate(s) wait to be offered)"
    if outcome.left:
        return f"git memory extract --runner builtin ({outcome.left} task(s) left by --limit)"
    if outcome.extracted:
        return (
            f"nothing new to review: {len(outcome.extracted)} chunk(s) read, every memory "
            "they hold is already approved or proposed"
        )
    if outcome.sessions:
        return "nothing new to review: every session of the window was extracted already"
    skipped = sum(n for _, n in outcome.skipped)
    if skipped:
        return f"nothing to extract: all {skipped} session(s) of the window were skipped"
    return (
        "nothing to extract: no session of this worktree in the window "
        "(widen --since, or check `git memory sessions list`)"
    )


def _preview(ctx: OpContext, request: ExtractPreviewRequest) -> ExtractRunnerResponse:
    options = RunnerOptions(request.runner, None, request.runner_model, request.runner_endpoint)
    with open_workspace(ctx.worktree) as workspace:
        plans, manifest = preview_batch(workspace, options, request.request, limit=request.limit)
    digest = manifest.manifest_digest if manifest else (plans[0].plan_digest if plans else "")
    flag = "--approve-manifest" if manifest else "--approve-plan"
    return ExtractRunnerResponse(
        runner=request.runner,
        extracted=[],
        adjudicated=[],
        quarantined=[],
        plans=[plan.to_json() for plan in plans],
        manifest=manifest.to_json() if manifest else None,
        next=(
            f"ask the human to run: git memory extract --runner {request.runner} … {flag} {digest}"
        )
        if plans
        else "nothing to send",
    )


MAX_MODEL_TASKS = 8
_DIGEST = re.compile(r"^[0-9a-f]{64}$")


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> ExtractRunnerRequest:
    """The request from the flags; the window defaults as `extract.window` describes, and
    one longer than a request allows is split into parts (none before the oldest session)."""
    since, until = values.get("since"), values.get("until")
    last = None
    if not since:
        with open_workspace(ctx.worktree, sync=False) as workspace:
            last = window.last_until(workspace.db, workspace.owner)
    resolved = window.resolve_window(since, until, last_until=last, now=window.utc_now())
    parts = window.split(resolved, not_before=_oldest_session(ctx, resolved))
    request = _request(values, request_from_cli(values, parts[0].time_window().to_json()))
    later = [part.time_window() for part in parts[1:]]
    return request.model_copy(update={"later_windows": later})


def _oldest_session(ctx: OpContext, resolved: window.Window) -> datetime | None:
    """When this worktree's oldest indexed session started, for a window longer than one
    part (the parts before it hold nothing); None otherwise."""
    if resolved.before - resolved.after <= window.MAX_WINDOW:
        return None
    oldest = oldest_start(ctx.worktree)
    try:
        return (
            window.parse_moment(oldest, "the oldest session", resolved.before) if oldest else None
        )
    except GitMemoryError:
        return None  # an unreadable start time only costs the parts before it


def _from_request_file(ctx: OpContext, document: Any, values: Mapping[str, Any]) -> Any:
    """`--request FILE` holds the MemoryExtractionRequest; runner and approvals are flags.
    A whole ExtractRunnerRequest document is taken as it is."""
    if isinstance(document, dict) and document.get("format") == EXTRACTION_REQUEST_FORMAT:
        _check_window(document.get("window"))
        return _request(values, document)
    if isinstance(document, dict) and isinstance(document.get("request"), dict):
        _check_window(document["request"].get("window"))
    return document


def _check_window(document_window: Any) -> None:
    """A request file's window, refused in plain words when reversed or too long."""
    if not isinstance(document_window, dict):
        return
    try:
        after, before = (
            datetime.fromisoformat(str(document_window[key]).replace("Z", "+00:00"))
            for key in ("after", "before")
        )
    except (KeyError, ValueError):
        return  # the schema check says what is wrong with the values themselves
    aware = [m if m.tzinfo else m.replace(tzinfo=UTC) for m in (after, before)]
    window.checked(window.Window(aware[0], aware[1]))


def _request(values: Mapping[str, Any], selection: dict[str, Any]) -> ExtractRunnerRequest:
    if not values.get("runner"):
        raise UsageError("GM_USAGE", "--runner NAME is required", hint="e.g. --runner builtin")
    for flag, name in (
        ("--approve-plan", "approve_plan"),
        ("--approve-manifest", "approve_manifest"),
    ):
        value = values.get(name)
        if value is not None and not _DIGEST.match(value):
            raise UsageError(
                "GM_USAGE",
                f"{flag} takes a digest of 64 lowercase hex characters, not {value[:80]!r}",
                hint="copy the digest from the plan that extract or extract_preview printed",
            )
    return ExtractRunnerRequest.model_validate(
        {
            "runner": values["runner"],
            "runnerCommand": values.get("runner_command"),
            "runnerModel": values.get("runner_model"),
            "runnerEndpoint": values.get("runner_endpoint"),
            "request": selection,
            "limit": values.get("limit"),
            "approvePlan": values.get("approve_plan"),
            "approveManifest": values.get("approve_manifest"),
        }
    )


def _render(response: ExtractRunnerResponse, ids: ShortIds) -> str:
    lines = [f"{response.runner}: {len(response.extracted)} extraction task(s), "]
    lines[0] += f"{len(response.adjudicated)} adjudication(s) answered"
    if response.runner == "builtin" and response.window:
        lines[0] += f", {response.sessions} session(s) read"
        lines.append(f"  window {response.window['after']} → {response.window['before']}")
    lines += [f"  skipped {item.sessions} session(s): {item.reason}" for item in response.skipped]
    if response.harvest is not None:
        stores = ", ".join(store.store for store in response.harvest.stores)
        lines.append(f"  agents' own memory ({stores}): {harvest_summary(response.harvest)}")
    shown = ids.of("candidate", response.quarantined)
    texts = {item.candidate_id: item.content for item in response.added}
    for candidate in response.quarantined:
        text = texts.get(candidate)
        lines.append(
            f"  added {shown[candidate]}: {text}" if text else f"  added {shown[candidate]}"
        )
    if response.waiting:
        lines.append(
            f"  {response.waiting} more candidate(s) wait: the next run offers them, the best"
            f" corroborated first ({LIMIT_KEY} caps each run)"
        )
    lines += [f"  session {n.session_key[:12]}: {n.note}" for n in response.session_notes]
    lines.append(f"next: {response.next}")
    return "\n".join(lines)


OPERATION = Operation(
    spec=spec("extract"),
    request_model=ExtractRunnerRequest,
    response_model=ExtractRunnerResponse,
    handler=extract,
    cli_params=[
        click.Option(
            ["--runner"],
            type=click.Choice(["builtin", "claude", "codex", "command"]),
            help="The runner that answers the tasks (builtin: no model, nothing sent).",
        ),
        click.Option(["--runner-command"], help="Command line of the command runner."),
        click.Option(["--runner-model"], help="Pinned model (codex, command)."),
        click.Option(["--runner-endpoint"], help="https endpoint (codex, command)."),
        *SELECTION_PARAMS,
        click.Option(
            ["--limit"],
            type=click.IntRange(min=1),
            help="Extraction tasks per run (builtin: all pending by default; model runners: 1, "
            "at most 8).",
        ),
        click.Option(["--approve-plan"], metavar="DIGEST", help="Approve this plan digest."),
        click.Option(
            ["--approve-manifest"], metavar="DIGEST", help="Approve every plan of this manifest."
        ),
    ],
    from_cli=_from_cli,
    from_request_file=_from_request_file,
    render_text_with_ids=_render,
    mcp_request_model=ExtractPreviewRequest,
    mcp_summary="Preview the runner plans of an extraction; nothing is sent.",
    mcp_description=(
        "Plan the deliveries `git memory extract --runner NAME` would make for a selection "
        "(an explicit UTC window, optional query and filters) and store them as pending "
        "RunnerExecutionPlans: exact byte counts, digests and opaque coverage, never "
        "transcript text. Nothing is sent and nothing can be approved here: show the human "
        "the plans; they approve and deliver on the command line with --approve-plan or "
        "--approve-manifest. To extract with the agent in this conversation instead, use "
        "memory_recall."
    ),
    # Over MCP it only stores pending plans: nothing is sent and nothing outside is touched.
    mcp_annotations={"destructiveHint": False, "openWorldHint": False},
)
