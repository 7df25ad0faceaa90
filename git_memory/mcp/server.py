"""`git memory mcp`: a stdio MCP server bound to one worktree, its tools from the registry.

Operations are synchronous; each tool call runs in a worker thread, one at a time, with an
`OpContext` bound to the worktree the server started in. When the client can show forms
(elicitation), `ctx.confirm` asks the human and `ctx.via` is `elicitation`; otherwise
`ctx.via` is `agent` and operations that need approval require the digest the agent passes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from git_memory import __version__, output
from git_memory.errors import GitMemoryError
from git_memory.mcp import elicitation
from git_memory.mcp.tools import ToolBinding, document_text, internal_error, load_tools
from git_memory.ops.base import OpContext
from git_memory.ops.registry import OPERATIONS, OperationSpec

SERVER_NAME = "git-memory"

INSTRUCTIONS = """\
git memory keeps reviewed, sanitized team memory under .memory/ in this git worktree, mined \
from past agent sessions. Work in this order:
1. memory_recall (or memory_synthesize for scenes and doctrine) returns tasks with transcript \
evidence; write candidates that cite evidence ids.
2. memory_stage the CandidateDraftBatch; stage the AdjudicationResult it asks for next.
3. memory_review shows the quarantined candidates, their statements and evidence.
4. Show the human the statements and ask before memory_prepare: the digests you pass to \
prepare are the human's confirmation. Never prepare or promote on your own.
5. memory_promote applies the plan: when this client can show forms, the human approves the \
diff directly; otherwise pass the plan digest only after the human saw the diff and agreed.
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


def bind(repository: Path | str | None) -> Binding:
    """Discover the worktree at start; an error is kept and returned by every tool call."""
    from git_memory.repo.binding import discover_worktree

    try:
        return Binding(discover_worktree(repository).root)
    except GitMemoryError as exc:
        return Binding(None, exc)


def error_result(exc: GitMemoryError) -> types.CallToolResult:
    """A tool error: `{code, problem, next}` as structured content and as text."""
    document = exc.to_json()
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=document_text(document))],
        structured_content=document,
        is_error=True,
    )


def success_result(document: dict[str, Any]) -> types.CallToolResult:
    """A tool result: the `--format json` document as structured content and as text."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=document_text(document))],
        structured_content=document,
    )


def _arguments_digest(arguments: dict[str, Any] | None) -> str:
    text = json.dumps(arguments or {}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _client_elicits(ctx: ServerRequestContext[Any, Any]) -> bool:
    """Whether the client declared form elicitation (an empty capability means form)."""
    capabilities = ctx.session.client_capabilities
    if capabilities is None or capabilities.elicitation is None:
        return False
    declared = capabilities.elicitation
    return declared.form is not None or declared.url is None


@dataclass
class MemoryServer:
    """The tools of one worktree and the state of questions awaiting a retry."""

    binding: Binding
    tools: dict[str, ToolBinding]
    pending: elicitation.PendingQuestions = field(default_factory=elicitation.PendingQuestions)
    _lock: anyio.Lock | None = None

    @classmethod
    def create(
        cls, repository: Path | str | None, operations: Iterable[OperationSpec] = OPERATIONS
    ) -> MemoryServer:
        """Bind to the worktree and load every registry operation that has an MCP tool."""
        return cls(bind(repository), load_tools(operations))

    def lowlevel(self) -> Server[Any]:
        """The SDK server answering tools/list and tools/call."""
        instructions = INSTRUCTIONS
        if self.binding.error is not None:
            instructions += f"\n\nNot usable here: {self.binding.error}"
        return Server(
            SERVER_NAME,
            version=__version__,
            instructions=instructions,
            on_list_tools=self.list_tools,
            on_call_tool=self.call_tool,
        )

    async def list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        """Every generated tool, in registry order."""
        return types.ListToolsResult(tools=[_tool(binding) for binding in self.tools.values()])

    async def call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        """Run one tool; a question for the human may come back as `input_required`."""
        binding = self.tools.get(params.name)
        if binding is None:
            return error_result(
                GitMemoryError(
                    "GM_MCP_UNKNOWN_TOOL",
                    f"no tool named {params.name!r}",
                    hint="tools/list shows the tools of this server",
                )
            )
        if self.binding.error is not None:
            return error_result(self.binding.error)
        op_ctx = OpContext(repository=self.binding.root, via="agent")
        op_ctx.extras.update(output_format="json", front_end="mcp")
        digest = _arguments_digest(params.arguments)
        # A one-sided tool (a runner preview) never gets to ask: its approval is the CLI's.
        if _client_elicits(ctx) and binding.spec.one_sided_reason is None:
            refused = self._attach_confirm(ctx, params, op_ctx, digest)
            if refused is not None:
                return error_result(refused)
        if self._lock is None:
            self._lock = anyio.Lock()
        async with self._lock:
            outcome = await anyio.to_thread.run_sync(_run, binding, op_ctx, params.arguments)
        if isinstance(outcome, elicitation.Question):
            return self._input_required(binding.name, digest, outcome)
        if isinstance(outcome, GitMemoryError):
            return error_result(outcome)
        return success_result(outcome)

    def _attach_confirm(
        self,
        ctx: ServerRequestContext[Any, Any],
        params: types.CallToolRequestParams,
        op_ctx: OpContext,
        digest: str,
    ) -> GitMemoryError | None:
        op_ctx.via = "elicitation"
        if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            op_ctx.confirm = elicitation.blocking_confirm(_asker(ctx))
            return None
        round_confirm = elicitation.RoundConfirm()
        if params.request_state is not None:
            question = self.pending.answer(params.request_state, params.name, digest)
            if question is None:
                return GitMemoryError(
                    "GM_MCP_APPROVAL_UNKNOWN",
                    "this retry answers a question the server did not ask (or already answered)",
                    hint="call the tool again without requestState to be asked afresh",
                )
            answer = (params.input_responses or {}).get(elicitation.INPUT_KEY)
            if not isinstance(answer, types.ElicitResult):
                answer = types.ElicitResult(action="cancel")
            round_confirm.answers[question] = elicitation.approved(answer.action, answer.content)
        op_ctx.confirm = round_confirm
        return None

    def _input_required(
        self, tool: str, digest: str, question: elicitation.Question
    ) -> types.InputRequiredResult:
        token = self.pending.ask(tool, digest, question)
        form = types.ElicitRequest(
            params=types.ElicitRequestFormParams(
                message=question.message(), requested_schema=elicitation.APPROVAL_SCHEMA
            )
        )
        return types.InputRequiredResult(
            input_requests={elicitation.INPUT_KEY: form}, request_state=token
        )


def _tool(binding: ToolBinding) -> types.Tool:
    return types.Tool(
        name=binding.name,
        title=binding.spec.summary.rstrip("."),
        description=binding.description(),
        input_schema=binding.input_schema(),
        output_schema=binding.output_schema(),
        annotations=types.ToolAnnotations.model_validate(binding.annotations()),
    )


def _asker(ctx: ServerRequestContext[Any, Any]) -> Any:
    """`ask(message, schema)` for a worker thread: sends elicitation/create and waits."""

    def ask(message: str, schema: dict[str, Any]) -> tuple[str, Any]:
        try:
            result = anyio.from_thread.run(ctx.session.elicit_form, message, schema, ctx.request_id)
        except MCPError as exc:
            # The client declared elicitation but could not ask (no UI, timeout, refusal).
            raise GitMemoryError(
                "GM_MCP_ELICITATION_FAILED",
                f"the client could not ask the human: {exc}",
                hint="show the human the diff yourself and pass the digest they approved",
            ) from exc
        return result.action, result.content

    return ask


def _run(
    binding: ToolBinding, ctx: OpContext, arguments: dict[str, Any] | None
) -> dict[str, Any] | GitMemoryError | elicitation.Question:
    """Run a tool in the worker thread; never raises."""
    try:
        return binding.run(ctx, arguments)
    except elicitation.ElicitationPending as pending:
        return pending.question
    except GitMemoryError as exc:
        return exc
    except Exception:
        home = None
        if "worktree" in ctx.__dict__:
            home = ctx.worktree.state_home
        return internal_error(home)


async def _serve(repository: Path | str | None, operations: Iterable[OperationSpec]) -> None:
    from mcp.server.stdio import stdio_server

    memory = MemoryServer(bind(repository), load_tools(operations, strict=False))
    if memory.binding.error is not None:
        error = memory.binding.error
        output.print_error(error.code, error.message, error.hint)
    server = memory.lowlevel()
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve(repository: Path | str | None, operations: Iterable[OperationSpec] = OPERATIONS) -> int:
    """Serve MCP on stdin/stdout until the client closes the connection."""
    anyio.run(_serve, repository, tuple(operations))
    return 0
