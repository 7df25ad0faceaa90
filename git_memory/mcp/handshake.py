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
from git_memory.mcp.surface import EVERYDAY_TOOLS

SERVER_NAME = "git-memory"
# The per-request envelope of the 2026 protocol era (params._meta), as the SDK names its keys.
PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
CATALOG_PATH = Path(__file__).with_name("catalog.json")

# How Claude Code names a tool of this server when it is registered as `git-memory` (the
# shipped snippets, contrib/mcp/).
CLIENT_PREFIX = "mcp__git-memory__"
# One ToolSearch query that loads every everyday tool where the client defers them.
SELECT_QUERY = "select:" + ",".join(CLIENT_PREFIX + name for name in EVERYDAY_TOOLS)

# Claude Code keeps the first 2,048 characters of a server's instructions.
INSTRUCTIONS_LIMIT = 2048
INSTRUCTIONS = f"""\
git memory keeps reviewed, sanitized team memory under .memory/ in this git worktree, mined \
from past agent sessions. Where the client lists tools by name only (Claude Code's \
ToolSearch), load this server's tools first with one query: {SELECT_QUERY}
Work in this order:
1. memory_recall returns tasks with transcript evidence; each task's contract carries the \
JSON Schema of the document that answers it.
2. memory_stage_drafts the CandidateDraftBatch (citing evidence ids of the task), then \
memory_stage_adjudication the AdjudicationResult it asks for.
3. memory_review shows the quarantined candidates, statements, evidence and where the words \
behind each came from (`origins`: person, document, program, agent, tool).
4. Show the human the statements and ask before memory_prepare: the digests you pass are the \
human's confirmation. Never prepare or promote on your own. Ask about a statement no \
person's words back (no `person` origin) on its own, saying it rests on your words or a \
tool's output; never confirm it with others.
5. memory_promote applies the plan: where the client shows forms the human approves the diff, \
and a decline is final (GM_PLAN_DECLINED). Only when the form was cancelled or the client has \
none, pass the plan digest, after the human saw the diff and agreed.
memory_status and memory_search are read-only; a search result marked stale relies on \
something gone. `git memory mcp --tools all` (or git config memory.mcpTools all) also lists \
synthesize, stage_skill, stage_patch, assemble, verify, retire (ask the human first) and the \
runner previews. git memory never commits, stages or pushes; the human commits .memory/."""


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


def modern_result(
    catalog: dict[str, Any], message: dict[str, Any], instructions: str
) -> dict[str, Any] | None:
    """The result the SDK would give a `server/discover` or a `tools/list` of the
    per-request-envelope era, or None when the SDK must answer itself.

    Claude Code 2.1.332 opens with `server/discover` and falls back to `initialize` only after
    waiting for an answer, so answering it here keeps the connect short. Only a request whose
    envelope names the catalog's modern version and carries client capabilities (what the SDK
    requires) is answered; `tools/list` only without a cursor.
    """
    modern = catalog.get("modern")
    params = message.get("params")
    if not isinstance(modern, dict) or not isinstance(params, dict):
        return None
    meta = params.get("_meta")
    if not isinstance(meta, dict) or CLIENT_CAPABILITIES_KEY not in meta:
        return None
    if meta.get(PROTOCOL_VERSION_KEY) != modern["protocolVersion"]:
        return None
    method = message.get("method")
    if method == "server/discover":
        return {**modern["discover"], "instructions": instructions}
    if method == "tools/list" and set(params) == {"_meta"}:
        return {**modern["toolsList"], "tools": catalog["tools"]}
    return None
