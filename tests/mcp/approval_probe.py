"""A test-only operation that needs human approval, served next to the registry's tools.

It follows the approval contract of `OpContext`: a digest in the request is the agent's
approval (`via: agent`); otherwise `ctx.confirm(summary, diff)` asks the human (`ctx.via`).
Every applied change is appended to `<state home>/probe-log.jsonl`, so tests can see what was
recorded and that nothing was written on refusal.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Literal

from git_memory.contracts.base import Model
from git_memory.errors import GitMemoryError
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import OperationSpec

LOG_NAME = "probe-log.jsonl"


class ProbeRequest(Model):
    """The change to apply and, optionally, the digest that approves it."""

    format: Literal["git-memory-probe-request@v1"] = "git-memory-probe-request@v1"
    change: str
    approve: str | None = None


class ProbePreviewRequest(Model):
    """The preview-only shape: no approval field."""

    format: Literal["git-memory-probe-request@v1"] = "git-memory-probe-request@v1"
    change: str


class ProbeResponse(Model):
    """What was applied and who approved it."""

    format: Literal["git-memory-probe@v1"] = "git-memory-probe@v1"
    change: str
    via: str
    approval_digest: str


def change_digest(change: str) -> str:
    """The digest an agent passes to approve `change` (what the human saw)."""
    return hashlib.sha256(f"+{change}\n".encode()).hexdigest()


def probe(ctx: OpContext, request: ProbeRequest) -> ProbeResponse:
    """Append one line to the probe log after the human (or the agent's digest) approved it."""
    if request.change == "explode":
        raise RuntimeError("a bug in an operation")
    diff = f"+{request.change}\n"
    if request.approve is not None:
        if request.approve != change_digest(request.change):
            raise GitMemoryError("GM_PROBE_APPROVAL_MISMATCH", "digest does not match")
        via = "agent"
    elif ctx.confirm is not None:
        if not ctx.confirm(f"Apply probe change {request.change!r}?", diff):
            raise GitMemoryError("GM_PROBE_DECLINED", "the human did not approve")
        via = ctx.via
    else:
        raise GitMemoryError("GM_PROBE_APPROVAL_REQUIRED", "approval required", hint="pass approve")
    log = Path(ctx.state_home) / LOG_NAME
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"change": request.change, "via": via}) + "\n")
    return ProbeResponse(
        change=request.change, via=via, approval_digest=change_digest(request.change)
    )


PROBE_SPEC = OperationSpec(
    name="probe",
    module="tests.mcp.approval_probe",
    summary="Apply a probe change after approval.",
    side_effect="private-state",
    cli_path=("probe",),
    mcp_tool="memory_probe",
)

OPERATION = Operation(
    spec=PROBE_SPEC,
    request_model=ProbeRequest,
    response_model=ProbeResponse,
    handler=probe,
)

PREVIEW_SPEC = OperationSpec(
    name="probe-preview",
    module="tests.mcp.approval_probe_preview",
    summary="Preview a probe change.",
    side_effect="private-state",
    cli_path=("probe-preview",),
    mcp_tool="memory_probe_preview",
    one_sided_reason="only previews: approval needs the CLI",
)


def read_log(state_home: Path) -> list[dict[str, str]]:
    """The probe log lines (empty when nothing was applied)."""
    path = state_home / LOG_NAME
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]
