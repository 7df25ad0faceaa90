"""What the server says before its SDK is loaded: instructions, binding, the tool catalog.

This module imports neither the MCP SDK nor pydantic: `git memory mcp` answers `initialize`
and `tools/list` from here within a fraction of a second of being spawned (see `mcp/wire.py`).
The catalog is generated from the registry by `python -m git_memory.mcp.catalog`; a test fails
when it drifts from what the SDK server would answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from git_memory.errors import GitMemoryError

SERVER_NAME = "git-memory"
CATALOG_PATH = Path(__file__).with_name("catalog.json")

INSTRUCTIONS = """\
git memory keeps reviewed, sanitized team memory under .memory/ in this git worktree, mined \
from past agent sessions. Work in this order:
1. memory_recall (or memory_synthesize for scenes and doctrine) returns tasks with transcript \
evidence; each task's contract carries the JSON Schema of the document that answers it.
2. memory_stage_drafts the CandidateDraftBatch (citing evidence ids of the task), then \
memory_stage_adjudication the AdjudicationResult it asks for (memory_stage_skill and \
memory_stage_patch stage skills and consolidation patches).
3. memory_review shows the quarantined candidates, their statements and evidence, and where \
the quoted words behind each statement came from (`origins`: person, document, program, agent, \
tool).
4. Show the human the statements and ask before memory_prepare: the digests you pass to \
prepare are the human's confirmation. Never prepare or promote on your own. Ask about a \
statement that no person's words back (no `person` in its origins) on its own, saying it rests \
on your words or a tool's output; never confirm it together with others.
5. memory_promote applies the plan: when this client can show forms, the human approves the \
diff directly, and a decline is final (the plan is void: GM_PLAN_DECLINED). Only when the form \
was cancelled or the client has none, pass the plan digest, and only after the human saw the \
diff and agreed.
6. memory_assemble refreshes CLAUDE.md / AGENTS.md and the skill projections.
memory_status, memory_search and memory_verify are read-only and safe at any time; a search \
result marked stale relies on a file, commit, target or script that is gone. To retire stale \
memory, ask the human, then memory_retire and memory_promote (the human approves). Runner previews \
(memory_extract_preview, memory_consolidate_preview) only create pending plans; sending \
transcripts to a runner needs an approval in the CLI. git memory never commits, stages or \
pushes; the human commits .memory/ with git."""


@dataclass
class Binding:
    """The worktree this server is bound to, or why it is bound to none."""

    root: Path | None
    error: GitMemoryError | None = None


def load_catalog(path: Path = CATALOG_PATH) -> dict[str, Any] | None:
    """The generated catalog, or None when it is missing (the SDK then answers everything)."""
    try:
        catalog: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return catalog


def initialize_result(
    catalog: dict[str, Any], params: Any, instructions: str
) -> dict[str, Any] | None:
    """The `initialize` result the SDK would give, or None when the SDK must answer itself.

    A handshake-era version is echoed when the client asks for it, as the SDK negotiates;
    anything unusual (no params, an unknown shape) is left to the SDK.
    """
    if not isinstance(params, dict) or not isinstance(params.get("protocolVersion"), str):
        return None
    requested = params["protocolVersion"]
    versions: list[str] = catalog["protocolVersions"]
    negotiated = requested if requested in versions else catalog["latestProtocolVersion"]
    return {**catalog["initialize"], "protocolVersion": negotiated, "instructions": instructions}
