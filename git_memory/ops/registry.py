"""The operation registry: every operation is declared here once.

A declaration is light (no pydantic import) so `git memory -h` can list commands without
loading any operation. The operation's module binds the declaration to its request and
response models and handler as `OPERATION` (see `ops/base.py`). The CLI and the MCP server are
adapters generated from this table; `tests/ops/test_registry.py` fails when an operation has
no CLI command or the MCP side disagrees.
"""

from __future__ import annotations

from git_memory.records import Record

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of
# `git memory -h` (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Literal

    SideEffect = Literal["none", "private-state", "external-delivery", "worktree"]


class McpVariant(Record):
    """One MCP tool of an operation whose request is one of several documents (by `format`).

    Agent clients refuse or empty a tool whose input schema is a union at the top, so such an
    operation offers one tool per document kind; together they take what the CLI takes.
    """

    tool: str
    document: str
    summary: str


class OperationSpec(Record):
    """What is known about an operation before its module is imported.

    A named tuple, not a dataclass: `git memory -h` reads this table, and the dataclass
    machinery (inspect, ast, dis) would be most of its start-up.
    """

    name: str
    module: str
    summary: str
    side_effect: SideEffect
    cli_path: tuple[str, ...]
    mcp_tool: str | None = None
    # Why an operation has no MCP tool (CLI-only by design); required when mcp_tool is None.
    cli_only_reason: str | None = None
    # Why the MCP tool offers less than the CLI command (e.g. preview only: delivery needs a CLI
    # approval); required when the operation binds a narrower `mcp_request_model`.
    one_sided_reason: str | None = None
    # Several tools, one per request document kind, instead of `mcp_tool`.
    mcp_variants: tuple[McpVariant, ...] = ()

    @property
    def mcp_tools(self) -> tuple[str, ...]:
        """The names of the MCP tools of this operation (none when it is CLI-only)."""
        if self.mcp_tool:
            return (self.mcp_tool,)
        return tuple(variant.tool for variant in self.mcp_variants)


def _op(
    name: str,
    summary: str,
    side_effect: SideEffect,
    *,
    cli_path: tuple[str, ...] | None = None,
    mcp_tool: str | None = None,
    cli_only: str | None = None,
    one_sided: str | None = None,
    module: str | None = None,
    mcp_variants: tuple[McpVariant, ...] = (),
) -> OperationSpec:
    return OperationSpec(
        name=name,
        module=module or f"git_memory.ops.{name.replace('-', '_')}",
        summary=summary,
        side_effect=side_effect,
        cli_path=cli_path or (name,),
        mcp_tool=mcp_tool,
        cli_only_reason=cli_only,
        one_sided_reason=one_sided,
        mcp_variants=mcp_variants,
    )


OPERATIONS: tuple[OperationSpec, ...] = (
    _op(
        "init",
        "Create the memory root in this worktree.",
        "worktree",
        cli_only="sets up the repository; an agent has no reason to run it",
    ),
    _op(
        "status",
        "Show the binding, counts and pending work of this worktree.",
        "none",
        mcp_tool="memory_status",
    ),
    _op(
        "schema",
        "Print the JSON Schema of a contract, or list them.",
        "none",
        cli_only="MCP tools publish their own input schemas; this prints the documents' schemas",
    ),  # --- memory files, lint, hooks, index (issue 3) ---
    _op(
        "lint",
        "Check memory files for secrets, private paths and format errors.",
        "none",
        mcp_tool="memory_lint",
    ),
    _op(
        "fmt",
        "Rewrite memory files into their canonical form (or --check).",
        "worktree",
        cli_only="a formatting tool for people editing memory files by hand",
    ),
    _op(
        "reindex",
        "Regenerate index.json from the memory files.",
        "worktree",
        cli_only="a repair command; promotion keeps index.json current",
    ),
    _op(
        "merge-index",
        "Merge driver for index.json (called by git with %O %A %B %P).",
        "worktree",
        cli_only="git runs it as the index.json merge driver",
    ),
    _op(
        "hooks-install",
        "Install the pre-commit lint hook and the index.json merge driver.",
        "worktree",
        cli_path=("hooks", "install"),
        cli_only="configures the user's git hooks; a person decides that",
    ),
    _op(
        "hooks-uninstall",
        "Remove the hook shims (restoring chained hooks) and the merge driver.",
        "worktree",
        cli_path=("hooks", "uninstall"),
        cli_only="configures the user's git hooks; a person decides that",
    ),
    _op(
        "hooks-status",
        "Show whether the hook shims and the merge driver are installed.",
        "none",
        cli_path=("hooks", "status"),
        cli_only="describes the user's git hook setup",
    ),
    # --- session index (issue 4) ---
    _op(
        "sessions-sync",
        "Index Claude Code and Codex transcripts incrementally.",
        "private-state",
        cli_path=("sessions", "sync"),
        mcp_tool="memory_sessions_sync",
    ),
    _op(
        "sessions-list",
        "List indexed sessions of this worktree.",
        "none",
        cli_path=("sessions", "list"),
        mcp_tool="memory_sessions_list",
    ),
    _op(
        "sessions-show",
        "Show the normalized turns of a session or turn.",
        "none",
        cli_path=("sessions", "show"),
        cli_only="prints raw transcript text for people debugging the index",
    ),
    _op(
        "sessions-rebuild",
        "Recreate the session index from the transcripts.",
        "private-state",
        cli_path=("sessions", "rebuild"),
        cli_only="a maintenance command; sync covers what an agent needs",
    ),
    # --- memory state, search (issue 5) ---
    _op(
        "search",
        "Search approved memory by relevance (BM25), reporting generation and coverage.",
        "none",
        mcp_tool="memory_search",
    ),
    # --- agent-native extraction: recall, stage, review (issue 6) ---
    _op(
        "recall",
        "Turn sealed sessions of this worktree into extraction tasks for the agent.",
        "private-state",
        mcp_tool="memory_recall",
    ),
    _op(
        "stage",
        "Stage drafted candidates or adjudication decisions the agent wrote.",
        "private-state",
        mcp_variants=(
            McpVariant(
                "memory_stage_drafts",
                "git-memory-candidate-draft-batch@v1",
                "Stage the CandidateDraftBatch answering a recalled extraction task.",
            ),
            McpVariant(
                "memory_stage_adjudication",
                "git-memory-adjudication-result@v1",
                "Stage the AdjudicationResult answering the adjudication task of a staged batch.",
            ),
            McpVariant(
                "memory_stage_skill",
                "git-memory-skill-candidate@v1",
                "Stage a SkillCandidate (a SKILL.md) drawn from recalled tasks and memory.",
            ),
            McpVariant(
                "memory_stage_patch",
                "git-memory-consolidation-patch@v1",
                "Stage the ConsolidationPatch answering a memory_synthesize task.",
            ),
        ),
    ),
    _op(
        "review",
        "List quarantined candidates with their evidence; confirm or discard them.",
        "none",
        mcp_tool="memory_review",
    ),
    _op(
        "discard",
        "Discard one quarantined candidate at a known revision.",
        "private-state",
        cli_only="scripts use it; an agent discards through review with the human",
    ),
    # --- promotion: prepare, promote (issue 7) ---
    _op(
        "prepare",
        "Turn confirmed candidates into a promotion plan bound to exact file contents.",
        "private-state",
        mcp_tool="memory_prepare",
    ),
    _op(
        "promote",
        "Apply an approved promotion plan to the memory root (no-follow, atomic, CAS).",
        "worktree",
        mcp_tool="memory_promote",
    ),
    # --- runners and batch extraction (issue 8) ---
    _op(
        "reverify-runner",
        "Run the runner conformance probe again and replace its record.",
        "private-state",
        cli_only="probing spawns a model CLI; a person decides when to trust a runner",
    ),
    _op(
        "extract",
        "Send extraction tasks to a restricted runner after plan approval.",
        "external-delivery",
        mcp_tool="memory_extract_preview",
        one_sided="MCP only previews the runner plans; delivery needs a CLI approval",
    ),
    # --- consolidation, skills, assemble (issue 9) ---
    _op(
        "synthesize",
        "Return a consolidation task over approved memory for the agent to answer.",
        "private-state",
        mcp_tool="memory_synthesize",
    ),
    _op(
        "consolidate",
        "Run the consolidation task through an approved runner and stage its patch.",
        "external-delivery",
        mcp_tool="memory_consolidate_preview",
        one_sided="MCP only previews the runner plan; delivery needs a CLI approval",
    ),
    _op(
        "assemble",
        "Write approved memory into CLAUDE.md / AGENTS.md and project skills.",
        "worktree",
        mcp_tool="memory_assemble",
    ),
    _op(
        "context",
        "Print approved memory for an agent's session start, within a byte budget.",
        "none",
        mcp_tool="memory_context",
    ),
    # The newcomer path (demo, doctor) runs operations, so it sits above ops/ and declares
    # itself (demo/declaration.py, doctor/declaration.py); the CLI adds it.
    # --- keeping memory true: verify, list, retire ---
    _op(
        "verify",
        "Check approved memory against the worktree: fresh, stale (with reasons), unverifiable.",
        "none",
        mcp_tool="memory_verify",
    ),
    _op(
        "impact",
        "Measure each approved trap, rule and command: sessions before and after it landed.",
        "none",
        mcp_tool="memory_impact",
    ),
    _op(
        "list",
        "List approved memory as a table, with each entry's freshness.",
        "none",
        module="git_memory.ops.list_memory",
        cli_only="a table for people; agents find memory with memory_search",
    ),
    # --- agents' own memory (issue 32) ---
    _op(
        "harvest",
        "Offer what agents keep in their own memory stores for review as candidates.",
        "private-state",
        mcp_tool="memory_harvest",
    ),
    _op(
        "retire",
        "Prepare a promotion plan that deprecates approved entries, recording why.",
        "private-state",
        mcp_tool="memory_retire",
    ),
)


def spec(name: str) -> OperationSpec:
    """The declaration named `name`."""
    for candidate in OPERATIONS:
        if candidate.name == name:
            return candidate
    raise KeyError(name)
