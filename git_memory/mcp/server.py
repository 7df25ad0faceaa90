"""`git memory mcp`: a stdio MCP server bound to one worktree, its tools from the registry.

Operations are synchronous; each tool call runs in a worker thread, one at a time, with an
`OpContext` bound to the worktree the server started in. When the client can show forms
(elicitation), `ctx.form` and `ctx.confirm` ask the human and `ctx.via` is `elicitation`;
otherwise `ctx.via` is `agent` and operations that need approval require the digest the agent
passes (promotion: see `promote/approval.py` for a declined or cancelled form).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import anyio
import anyio.to_thread
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from git_memory import __version__
from git_memory.errors import GitMemoryError
from git_memory.mcp import elicitation
from git_memory.mcp.handshake import INSTRUCTIONS, SERVER_NAME, Binding
from git_memory.mcp.tools import ToolBinding, document_text, internal_error, load_tools
from git_memory.mcp.wire import Activity, Wire
from git_memory.ops.base import OpContext
from git_memory.ops.registry import OPERATIONS, OperationSpec
from git_memory.repo.binding import discover_worktree


def bind(repository: Path | str | None) -> Binding:
    """Discover the worktree at start; an error is kept and returned by every tool call."""
    try:
        return Binding(discover_worktree(repository).root)
    except GitMemoryError as exc:
        return Binding(None, exc)


def error_result(exc: GitMemoryError) -> types.CallToolResult:
    """A tool error: `{code, problem, next}` as JSON text, with no structured content.

    The tool's output schema describes its success document; clients built on the TypeScript
    SDK reject structured content that does not match it, even on an error result.
    """
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=document_text(exc.to_json()))],
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
    activity: Activity = field(default_factory=Activity)
    _lock: anyio.Lock | None = None

    @classmethod
    def create(
        cls, repository: Path | str | None, operations: Iterable[OperationSpec] = OPERATIONS
    ) -> MemoryServer:
        """Bind to the worktree and load every registry operation that has an MCP tool."""
        return cls(bind(repository), load_tools(operations))

    def lowlevel(self) -> Server[Any]:
        """The SDK server answering tools/list and tools/call."""
        return Server(
            SERVER_NAME,
            version=__version__,
            instructions=INSTRUCTIONS,
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
                    hint="tools/list shows the tools this server lists; `git memory mcp "
                    "--tools all` (or `git config memory.mcpTools all`) lists every tool",
                )
            )
        if self.binding.error is not None:
            return error_result(self.binding.error)
        op_ctx = OpContext(
            repository=self.binding.root, via="agent", front_end="mcp", output_format="json"
        )
        digest = _arguments_digest(params.arguments)
        # A one-sided tool (a runner preview) never gets to ask: its approval is the CLI's.
        if _client_elicits(ctx) and binding.spec.one_sided_reason is None:
            refused = self._attach_confirm(ctx, params, op_ctx, digest)
            if refused is not None:
                return error_result(refused)
        if self._lock is None:
            self._lock = anyio.Lock()
        async with self._lock:
            with self.activity:
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
            op_ctx.form = elicitation.blocking_form(_asker(ctx))
            op_ctx.confirm = elicitation.confirm_by(op_ctx.form)
            return None
        round_form = elicitation.RoundForm()
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
            round_form.answers[question] = elicitation.answer_of(answer.action, answer.content)
        op_ctx.form = round_form
        op_ctx.confirm = elicitation.confirm_by(round_form)
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
            raise elicitation.FormFailed(str(exc)) from exc
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


async def serve_sdk(memory: MemoryServer, wire: Wire) -> None:
    """Run the SDK server on the wire's streams until stdin ends."""
    server = memory.lowlevel()
    stdin, stdout = wire.hand_over()
    transport = stdio_server(stdin=cast(Any, stdin), stdout=cast(Any, stdout))
    async with transport as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
