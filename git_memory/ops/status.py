"""`git memory status`: binding, memory root and counts of pending work."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from git_memory.agent_memory import status as agent_memory_status
from git_memory.assemble.answers import STATUS_STATE_FILES
from git_memory.consolidate import status as consolidation_status
from git_memory.contracts.status import EmptyRequest, StatusResponse
from git_memory.errors import GitMemoryError
from git_memory.failpoints import failpoint
from git_memory.impact import status as impact_status
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.recorded_answers import answer_before, record_answer_after
from git_memory.ops.registry import spec
from git_memory.ops.short_ids import ShortIds
from git_memory.promote import recover as promotion_status
from git_memory.sessions import status as sessions_status
from git_memory.store import status as store_status
from git_memory.verify import status as verify_status
from git_memory.verify.recorded import consulted_paths

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree

# Each subsystem contributes counts under its own key, from a function taking the worktree
# and returning JSON data.
COUNT_CONTRIBUTORS: tuple[tuple[str, Callable[[Worktree], Any]], ...] = (
    ("sessions", sessions_status.counts),
    ("memory", store_status.counts),
    ("promotions", promotion_status.counts),
    ("consolidation", consolidation_status.counts),
    ("freshness", verify_status.counts),
    ("impact", impact_status.counts),
    ("agentMemory", agent_memory_status.counts),
)


def status(ctx: OpContext, request: EmptyRequest) -> StatusResponse:
    """Show the repository binding, the memory root and counts of sessions, tasks,
    candidates, approved memory and promotions of this worktree."""
    failpoint("status.start")
    worktree = ctx.worktree
    before = answer_before(worktree, "status", STATUS_STATE_FILES)
    counts: dict[str, Any] = {}
    notes: list[str] = []
    for key, contributor in COUNT_CONTRIBUTORS:
        try:
            counts[key] = contributor(ctx.worktree)
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
    # A part that failed may work next time, and agents' own stores live outside what the
    # record watches: neither is recorded.
    if not notes and not (isinstance(stores, dict) and stores.get("stores")):
        text = render(response, ShortIds(worktree))
        record_answer_after(worktree, before, text, consulted_paths(worktree))
    return response


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
    return "\n".join(lines + response.notes)


def _plan_line(plan_id: str, verb: str, ids: ShortIds) -> str:
    shown = ids.one("plan", plan_id)
    return f"promotion plan {shown} {verb}: git memory promote --plan {shown}"


def _plan_waits(plan: dict[str, Any]) -> str:
    held = plan.get("candidates", 0)
    confirmed = f" ({_count(held, 'confirmed candidate', 'confirmed candidates')})" if held else ""
    return f"{confirmed} waits; write it".lstrip()


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
    if candidates.get("quarantined", 0) > held:
        number = _count(candidates["quarantined"] - held, "candidate waits", "candidates wait")
        items.append(f"{number} for review: git memory review")
    if candidates.get("draft"):
        number = _count(candidates["draft"], "draft waits", "drafts wait")
        items.append(f"{number} for the agent's duplicate check (memory_stage adjudication)")
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
        number = _count(agent_memory["unharvested"], "agent memory waits", "agent memories wait")
        items.append(f"{number} in agents' own stores: git memory harvest")
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
