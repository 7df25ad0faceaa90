"""What every real-client run must show: the tools as offered, the flow, the written entries."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from git_memory.mcp.handshake import load_catalog
from git_memory.mcp.surface import EVERYDAY_TOOLS
from tests.promote.helpers import authorizations
from tests.realcli.fake_model import ScriptedAgent

# The everyday tools in the order of the flow, without the look-ups (status, search).
FLOW = [name for name in EVERYDAY_TOOLS if name not in ("memory_status", "memory_search")]


def check_offered_tools(offered: list[dict[str, dict[str, Any]]]) -> None:
    """Every `memory_*` tool the server lists (the everyday ones) reached the model whole:
    description and parameters."""
    assert offered, "no request offered the git-memory tools to the model"
    catalog = load_catalog()
    assert catalog is not None
    served = {tool["name"]: tool for tool in catalog["tools"] if tool["name"] in EVERYDAY_TOOLS}
    for tools in offered:
        assert set(tools) == set(served)
    for name, tool in offered[0].items():
        schema = tool.get("input_schema") or tool.get("parameters")
        assert isinstance(schema, dict), (name, tool)
        # Whole: a client may spell a keyword its own way, never drop one.
        assert _spelled_alike(schema) == _spelled_alike(served[name]["inputSchema"]), name
        assert served[name]["description"].split("\n")[0] in (tool.get("description") or "")


def _spelled_alike(node: Any) -> Any:
    """A schema with the rewrites clients make undone: Codex turns `const: X` into
    `enum: [X]` and gives an object without properties `properties: {}`."""
    if isinstance(node, list):
        return [_spelled_alike(item) for item in node]
    if not isinstance(node, dict):
        return node
    shown = {key: _spelled_alike(value) for key, value in node.items()}
    if "const" in shown:
        shown["enum"] = [shown.pop("const")]
    if shown.get("type") == "object":
        shown.setdefault("properties", {})
    return shown


def check_flow(agent: ScriptedAgent, root: Path, state: Path) -> dict[str, Any]:
    """The agent called the whole flow in order, every call succeeded, entries are written."""
    names = [name for name, _ in agent.calls]
    assert names[: len(FLOW)] == FLOW, names
    promoted = agent.seen[-1][1]
    assert agent.seen[-1][0] == "memory_promote"
    for name, document in agent.seen[:-1]:
        refused = name == "memory_promote" and document.get("code") == "GM_APPROVAL_REQUIRED"
        assert "code" not in document or refused, (name, document)
    assert promoted.get("status") == "applied", promoted
    assert promoted["files"], promoted
    for path in promoted["files"]:
        text = (root / path).read_text(encoding="utf-8")
        assert text.startswith("---"), path
    form = "approved"
    if promoted["approvedVia"] == "agent":
        # No human answered the form (cancelled, or none): the agent passed the digest.
        assert names == [*FLOW, "memory_promote"], names
        assert agent.calls[-1][1]["approve"] == promoted["planDigest"]
        form = agent.seen[-2][1]["details"]["form"]
        assert form in {"cancelled", "unsupported"}, form
    else:
        assert promoted["approvedVia"] == "elicitation", promoted
        assert names == FLOW, names
    # The authorization log says which path approved, and what became of the form.
    detail = {"planId": promoted["planId"], "form": form}
    assert authorizations(root) == [(promoted["approvedVia"], detail)]
    # The server used the state home the client was started with.
    assert any(state.rglob("*.sqlite*")) or any(state.rglob("*.db")), list(state.iterdir())
    return promoted
