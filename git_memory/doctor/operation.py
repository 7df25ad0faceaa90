"""`git memory doctor`: is the install healthy and this worktree set up?"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from git_memory.contracts.base import Model
from git_memory.contracts.status import EmptyRequest
from git_memory.doctor import checks, mcp_clients
from git_memory.doctor import worktree_checks as wt
from git_memory.doctor.checks import DoctorCheck
from git_memory.doctor.declaration import DOCTOR
from git_memory.doctor.worktree_checks import check_freshness
from git_memory.errors import GitMemoryError
from git_memory.ops.base import OpContext, Operation
from git_memory.paths import state_home
from git_memory.sessions.providers.base import enabled

if TYPE_CHECKING:
    from git_memory.repo.binding import Worktree


class DoctorReport(Model):
    """`git-memory-doctor@v1`: every check and whether all of them passed."""

    format: Literal["git-memory-doctor@v1"] = "git-memory-doctor@v1"
    healthy: bool
    checks: list[DoctorCheck] = Field(default_factory=list)


def doctor(ctx: OpContext, request: EmptyRequest) -> DoctorReport:
    """Check the install (version, man page), the state home's permissions, the transcript
    directories, the runners, whether Claude Code and Codex have the MCP server registered,
    and in a worktree the memory root, lint, index.json, hooks, indexed sessions, stale
    memory, the agents' own memory stores and whether Codex's memories folder holds only
    what Codex documents. Exits 1 with a hint for everything that needs action."""
    found = [checks.check_version(), checks.check_man_page()]
    try:
        worktree = ctx.worktree
    except GitMemoryError as exc:
        worktree = None
        # Most checks are about a worktree: outside one, doctor cannot call the setup healthy.
        found.append(
            checks.DoctorCheck(name="worktree", status="fail", detail=exc.message, hint=exc.hint)
        )
    try:
        home: Path | None = worktree.state_home if worktree is not None else state_home()
    except GitMemoryError as exc:
        home = None
        found.append(
            checks.DoctorCheck(name="state home", status="fail", detail=exc.message, hint=exc.hint)
        )
    if home is not None:
        found.append(checks.check_state_home(home))
    found.append(_transcripts(checks, worktree))
    if worktree is not None:
        found += [*wt.check_memory_root(ctx), wt.check_hooks(ctx)]
        if home is not None:
            found.append(wt.check_sessions(ctx))
        found.append(check_freshness(ctx))
        found.append(wt.check_agent_memory(ctx))
        found.append(wt.check_agent_files(ctx))
        found += wt.check_codex_memories(ctx)

    root = worktree.root if worktree is not None else None
    found += [
        *(checks.check_runners(home) if home is not None else []),
        mcp_clients.check_claude(root),
        mcp_clients.check_codex(),
        checks.check_runner_sandbox(),
    ]
    return DoctorReport(
        healthy=all(c.status != "fail" for c in found),
        checks=found,
    )


def _transcripts(checks: Any, worktree: Worktree | None) -> Any:
    """The transcripts check for the agents `memory.sources` turns on."""

    try:
        names = enabled(worktree) if worktree is not None else None
    except GitMemoryError as exc:
        return checks.DoctorCheck(
            name="transcripts", status="fail", detail=exc.message, hint=exc.hint
        )
    return checks.check_transcripts(names)


MARK = {"ok": "ok  ", "warn": "warn", "fail": "FAIL"}


def render(report: DoctorReport) -> str:
    """One line per check, hints indented below."""
    lines = []
    for check in report.checks:
        lines.append(f"[{MARK[check.status]}] {check.name}: {check.detail}")
        if check.hint and check.status != "ok":
            lines.append(f"       hint: {check.hint}")
    lines.append("healthy" if report.healthy else "something needs action (see FAIL lines)")
    return "\n".join(lines)


OPERATION = Operation(
    spec=DOCTOR,
    request_model=EmptyRequest,
    response_model=DoctorReport,
    handler=doctor,
    render_text=render,
    exit_code=lambda report: 0 if report.healthy else 1,
    accepts_request_file=False,
)
