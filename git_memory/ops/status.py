"""`git memory status`: binding, memory root and counts of pending work."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from git_memory.agent_memory import status as agent_memory_status
from git_memory.assemble.answers import STATUS_STATE_FILES
from git_memory.assemble.freshness import freshness_check
from git_memory.assemble.in_step import behind_note, files_behind
from git_memory.assemble.render import TARGET_FILES
from git_memory.assemble.snapshot import read_snapshot
from git_memory.consolidate import status as consolidation_status
from git_memory.contracts.status import EmptyRequest, StatusResponse
from git_memory.errors import GitMemoryError
from git_memory.failpoints import failpoint
from git_memory.impact import status as impact_status
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.recorded_answers import answer_before, record_answer_after
from git_memory.ops.registry import spec
from git_memory.ops.short_ids import ShortIds
from git_memory.paths import MEMORY_STATE_DB
from git_memory.promote import recover as promotion_status
from git_memory.sessions import status as sessions_status
from git_memory.store import status as store_status
from git_memory.store.session import Workspace, open_workspace
from git_memory.verify import status as verify_status
from git_memory.verify.recorded import consulted_paths

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree

# What a contributor is given: the worktree and the operation's one workspace, None when
# the state DB does not exist yet (status creates no state).
Contributor = Callable[["Worktree", Workspace | None], Any]


def _sessions(worktree: Worktree, workspace: Workspace | None) -> Any:
    return sessions_status.counts(worktree)


def _memory(worktree: Worktree, workspace: Workspace | None) -> Any:
    counts = store_status.counts(workspace)
    if workspace is not None and counts["candidates"]["draft"]:
        # Start-up seam: only drafts that wait need the extraction flow's modules.
        from git_memory.extract.adjudication_waits import waiting  # noqa: PLC0415

        with workspace.db.read():
            counts["adjudications"] = [one.to_json() for one in waiting(workspace.db, workspace)]
    return counts


def _promotions(worktree: Worktree, workspace: Workspace | None) -> Any:
    return promotion_status.counts(workspace)


def _consolidation(worktree: Worktree, workspace: Workspace | None) -> Any:
    return consolidation_status.counts(workspace)


def _impact(worktree: Worktree, workspace: Workspace | None) -> Any:
    return impact_status.counts(worktree)


def _agent_memory(worktree: Worktree, workspace: Workspace | None) -> Any:
    """What `git memory harvest` would offer for review now, decided as harvest decides it."""
    stores = agent_memory_status.found_stores(worktree)
    if not stores:
        return {"stores": 0, "unharvested": 0, "inReview": 0}
    # Start-up seam (docs/architecture.md): the harvest's decision loads the builtin
    # extractor's memory keys, which a worktree without agents' own stores never needs.
    from git_memory.extract.builtin import harvest_triage  # noqa: PLC0415

    return harvest_triage.counts(worktree, workspace, stores)


def _agent_files(worktree: Worktree, workspace: Workspace | None) -> Any:
    """The agents' files assemble wrote that are behind approved memory now."""
    if workspace is None or not worktree.memory_dir.is_dir():
        return {"behind": []}
    return {"behind": files_behind(worktree, read_snapshot(workspace, freshness_check()))}


# Each subsystem contributes counts under its own key, as JSON data; those that read the
# state DB are marked, and report an error of opening it as their own.
COUNT_CONTRIBUTORS: tuple[tuple[str, Contributor, bool], ...] = (
    ("sessions", _sessions, False),
    ("memory", _memory, True),
    ("promotions", _promotions, True),
    ("consolidation", _consolidation, True),
    ("freshness", verify_status.counts, True),
    ("impact", _impact, False),
    ("agentMemory", _agent_memory, True),
    ("agentFiles", _agent_files, True),
)


@contextlib.contextmanager
def _state(worktree: Worktree) -> Iterator[Workspace | GitMemoryError | None]:
    """The operation's workspace (opened unsynced: the memory contributor syncs it), None
    when there is no state DB yet, or the error opening it raised."""
    if not (worktree.state_home / MEMORY_STATE_DB).exists():
        yield None
        return
    try:
        workspace = open_workspace(worktree, sync=False)
    except GitMemoryError as exc:
        yield exc
        return
    with workspace:
        yield workspace


def status(ctx: OpContext, request: EmptyRequest) -> StatusResponse:
    """Show the repository binding, the memory root and counts of sessions, tasks,
    candidates, approved memory and promotions of this worktree."""
    failpoint("status.start")
    worktree = ctx.worktree
    before = answer_before(worktree, "status", STATUS_STATE_FILES)
    counts: dict[str, Any] = {}
    notes: list[str] = []
    with _state(worktree) as state:
        workspace = None if isinstance(state, GitMemoryError) else state
        for key, contributor, reads_state in COUNT_CONTRIBUTORS:
            try:
                if reads_state and isinstance(state, GitMemoryError):
                    raise state
                counts[key] = contributor(worktree, workspace)
            except GitMemoryError as exc:
                # Status is where a user looks first: one broken part is reported, not fatal.
                counts[key] = {"error": exc.code}
                notes.append(f"{key}: {exc.message} [{exc.code}]")
        response = StatusResponse(
            binding=worktree.binding(),
            memory_root=worktree.memory_root,
            memory_root_exists=worktree.memory_dir.is_dir(),
            counts=counts,
            notes=notes,
        )
        stores = counts.get("agentMemory", {})
        # A part that failed may work next time, and agents' own stores live outside what
        # the record watches: neither is recorded.
        recorded = not notes and not (isinstance(stores, dict) and stores.get("stores"))
        text = render(response, ShortIds(worktree, workspace)) if recorded else None
    # Recorded once the state DB is closed: the record is keyed on its files as they rest.
    if text is not None:
        record_answer_after(worktree, before, text, _watched(worktree))
    return response


def _watched(worktree: Worktree) -> list[str] | None:
    """What a recorded answer depends on in the worktree: what the freshness check looked at,
    and the agents' files (whether they are behind)."""
    consulted = consulted_paths(worktree)
    return None if consulted is None else [*consulted, *sorted(set(TARGET_FILES.values()))]


def render(response: StatusResponse, ids: ShortIds) -> str:
    """Human rendering of status: where memory lives, then what waits and the next command."""
    binding, counts = response.binding, response.counts
    memory = counts.get("memory", {})
    approved = memory.get("approved", {}) if isinstance(memory, dict) else {}
    root = f"memory root: {response.memory_root}/"
    if not response.memory_root_exists:
        root += " (missing; create it with `git memory init`)"
    elif "entries" in approved:
        root += f" ({_approved_line(approved)})"
    lines = [root, f"repository: {binding.public_repository_identity or '(no public origin)'}"]
    lines.append(_sessions_line(counts.get("sessions", {})))
    impact = counts.get("impact", {})
    if isinstance(impact, dict) and impact.get("measured"):
        lines.append(f"impact: {impact['summary']} (git memory impact)")
    waiting = _waiting(counts, ids)
    if waiting:
        lines.append("waiting:")
        lines += [f"  {item}" for item in waiting]
    else:
        lines.append(
            "nothing waits; after new agent sessions: git memory extract --runner builtin"
            " (or ask your agent to recall what it learned)"
        )
    behind = counts.get("agentFiles", {})
    if isinstance(behind, dict) and behind.get("behind"):
        lines.append(behind_note(behind["behind"]))
    return "\n".join(lines + response.notes)


def _plan_line(plan_id: str, verb: str, ids: ShortIds) -> str:
    shown = ids.one("plan", plan_id)
    return f"promotion plan {shown} {verb}: git memory promote --plan {shown}"


def _plan_waits(plan: dict[str, Any]) -> str:
    held = plan.get("candidates", 0)
    confirmed = f" ({_count(held, 'confirmed candidate', 'confirmed candidates')})" if held else ""
    return f"{confirmed} waits; write it".lstrip()


def _adjudication_line(batch: dict[str, Any]) -> str:
    drafts = _count(batch["drafts"], "draft", "drafts")
    task = batch["adjudicationTaskId"]
    if batch["state"] in ("pending", "claimed"):
        return f"{drafts} of {batch['draftsOf']}: adjudication task {task} waits"
    why = "was never issued" if task is None else f"{task} went {batch['state']}"
    return f"{drafts} of {batch['draftsOf']}: its adjudication task {why}; recall reissues it"


def _approved_line(approved: dict[str, Any]) -> str:
    line = _count(approved["entries"], "approved entry", "approved entries")
    retired = approved.get("retired", 0)
    return f"{line}, {retired} retired" if retired else line


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def _sessions_line(sessions: object) -> str:
    if not isinstance(sessions, dict) or "worktree" not in sessions:
        return "sessions: unavailable (see below)"
    if not sessions.get("indexed"):
        return "sessions: none indexed yet; index them with `git memory sessions sync`"
    mine = _count(sessions["worktree"], "session", "sessions")
    return f"sessions: {mine} of this worktree indexed ({sessions['indexed']} in all)"


def _waiting(counts: dict[str, Any], ids: ShortIds) -> list[str]:

    items: list[str] = []
    memory = counts.get("memory", {})
    candidates = memory.get("candidates", {}) if isinstance(memory, dict) else {}
    tasks = memory.get("tasks", {}) if isinstance(memory, dict) else {}
    promotions = counts.get("promotions", {})
    promotions = promotions if isinstance(promotions, dict) else {}
    # Candidates an open plan holds are confirmed already: review does not ask them again.
    held = sum(plan.get("candidates", 0) for plan in promotions.get("openPlans", []))
    waiting = memory.get("waiting", 0) if isinstance(memory, dict) else 0
    if candidates.get("quarantined", 0) > held + waiting:
        shown = candidates["quarantined"] - held - waiting
        number = _count(shown, "candidate waits", "candidates wait")
        items.append(f"{number} for review: git memory review")
    if waiting:
        number = _count(waiting, "candidate waits", "candidates wait")
        items.append(f"{number} to be offered for review: git memory extract --runner builtin")
    if candidates.get("draft"):
        number = _count(candidates["draft"], "draft waits", "drafts wait")
        items.append(f"{number} for the agent's duplicate check (memory_stage adjudication)")
        for batch in memory.get("adjudications", []):
            items.append(f"  {_adjudication_line(batch)}")
    for plan in promotions.get("openPlans", []):
        if plan["status"] != "applying":  # an applying plan is listed as interrupted below
            items.append(_plan_line(plan["planId"], _plan_waits(plan), ids))
    for plan in promotions.get("interrupted", []):
        items.append(_plan_line(plan["planId"], "was interrupted; resume it", ids))
    if tasks.get("pending"):
        number = _count(tasks["pending"], "extraction task is", "extraction tasks are")
        items.append(
            f"{number} not answered yet: git memory extract --runner builtin"
            " (or ask your agent to recall)"
        )
    freshness = counts.get("freshness", {})
    if isinstance(freshness, dict) and freshness.get("stale"):
        number = _count(freshness["stale"], "approved memory is", "approved memories are")
        items.append(f"{number} stale, left out of assembled context: git memory verify")
    agent_memory = counts.get("agentMemory", {})
    if isinstance(agent_memory, dict) and agent_memory.get("unharvested"):
        number = agent_memory_status.agent_items(agent_memory["unharvested"])
        items.append(f"{number} to review: git memory harvest")
    consolidation = counts.get("consolidation", {})
    if isinstance(consolidation, dict) and consolidation.get("pendingRunId"):
        items.append("a consolidation waits for review: git memory review --kind consolidation")
    return items


OPERATION = Operation(
    spec=spec("status"),
    request_model=EmptyRequest,
    response_model=StatusResponse,
    handler=status,
    render_text_with_ids=render,
    accepts_request_file=False,
)
