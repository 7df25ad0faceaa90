"""The preview-only binding of the probe: its MCP tool cannot pass an approval."""

from __future__ import annotations

from git_memory.ops.base import Operation
from tests.mcp.approval_probe import (
    PREVIEW_SPEC,
    ProbePreviewRequest,
    ProbeRequest,
    ProbeResponse,
    probe,
)

OPERATION = Operation(
    spec=PREVIEW_SPEC,
    request_model=ProbeRequest,
    response_model=ProbeResponse,
    handler=probe,
    mcp_request_model=ProbePreviewRequest,
)
