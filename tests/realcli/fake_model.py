"""A model endpoint on 127.0.0.1 that plays the agent for the real Claude Code and Codex CLIs.

It speaks the wire formats the clients use (the Anthropic Messages API with server-sent
events for Claude Code; the OpenAI Responses API for Codex; Google's generateContent for
Gemini CLI and OpenAI chat completions for Qwen Code, both only as far as a turn that reads
a file or ends), records every request, and answers each turn the way an agent following the
server's instructions would: it reads the tool results already in the conversation and issues
the next `memory_*` tool call (see `ScriptedAgent`), then ends with a text answer.
"""

from __future__ import annotations

import json
import re
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from git_memory.mcp.handshake import SERVER_NAME
from git_memory.mcp.surface import EVERYDAY_TOOLS
from tests.extract.conftest import SINCE, UNTIL
from tests.extract.flow import decisions, sample_batch
from tests.review_helpers import prepare_document

# (tool name without the client's prefix, the text the client passed back as its result)
ToolResult = tuple[str, str]
Call = tuple[str, dict[str, Any]]


def result_document(text: str) -> dict[str, Any]:
    """The JSON document in a tool result (a client may put a header before it)."""
    start = text.find("{")
    assert start >= 0, f"no JSON document in tool result: {text[:500]!r}"
    document, _ = json.JSONDecoder().raw_decode(text[start:])
    assert isinstance(document, dict)
    return document


@dataclass
class ScriptedAgent:
    """recall → stage drafts → stage adjudication → review → prepare → promote, from results."""

    calls: list[Call] = field(default_factory=list)
    # Every tool result the agent read, in order: (tool, JSON document).
    seen: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    # The refusals of memory_promote after which the agent calls it again with the digest;
    # an agent that ignores the human's no retries after GM_PLAN_DECLINED too.
    retry_with_digest: tuple[str, ...] = ("GM_APPROVAL_REQUIRED",)

    def next_call(self, results: list[ToolResult]) -> Call | None:
        """The next tool call after `results`, or None when the flow is complete."""
        if not results:
            return self._record("memory_recall", _recall_arguments())
        name, text = results[-1]
        document = result_document(text)
        if len(self.seen) < len(results):
            self.seen.append((name, document))
        step = getattr(self, f"_after_{name}", None)
        assert step is not None, f"unexpected tool result from {name}: {text[:500]}"
        call: Call | None = step(document, results)
        return None if call is None else self._record(*call)

    def _record(self, name: str, arguments: dict[str, Any]) -> Call:
        self.calls.append((name, arguments))
        return name, arguments

    def _after_memory_recall(self, recall: dict[str, Any], _: list[ToolResult]) -> Call:
        assert recall.get("tasks"), f"recall returned no task: {recall}"
        task = recall["tasks"][0]
        batch = sample_batch(task)
        # The tool names the document kind; the agent leaves `format` out.
        del batch["format"]
        return "memory_stage_drafts", batch

    def _after_memory_stage_drafts(self, staged: dict[str, Any], _: list[ToolResult]) -> Call:
        assert staged.get("status") == "adjudication-required", staged
        return "memory_stage_adjudication", decisions(staged["adjudicationTask"])

    def _after_memory_stage_adjudication(self, staged: dict[str, Any], _: list[ToolResult]) -> Call:
        assert staged.get("status") == "staged", staged
        return "memory_review", {}

    def _after_memory_review(self, review: dict[str, Any], _: list[ToolResult]) -> Call:
        assert review.get("items"), review
        # The human confirmed every statement they were shown.
        request = prepare_document(review["items"])
        del request["format"]
        return "memory_prepare", request

    def _after_memory_prepare(self, plan: dict[str, Any], _: list[ToolResult]) -> Call:
        assert "planId" in plan, plan
        return "memory_promote", {"plan": plan["planId"]}

    def _after_memory_promote(
        self, promoted: dict[str, Any], results: list[ToolResult]
    ) -> Call | None:
        if promoted.get("code") not in self.retry_with_digest or "approve" in self.calls[-1][1]:
            return None
        # The client did not get the human's answer: the agent passes the digest prepare
        # returned (once), as it is told to after the human agreed.
        plan = next(result_document(t) for n, t in reversed(results) if n == "memory_prepare")
        return "memory_promote", {"plan": plan["planId"], "approve": plan["planDigest"]}


def _recall_arguments() -> dict[str, Any]:
    return {
        "request": {
            "window": {"after": SINCE, "before": UNTIL},
            "filters": {"providers": ["claude"]},
        }
    }


@dataclass
class Recorded:
    """One request the client sent."""

    path: str
    body: Any


class FakeModel:
    """The threaded HTTP endpoint; `answer(path, body)` is given by the wire format."""

    def __init__(self, answer: Callable[[str, Any], tuple[str, bytes]]) -> None:
        self.requests: list[Recorded] = []
        # What went wrong answering a request (a failed expectation of the scripted agent).
        self.errors: list[str] = []
        self._answer = answer
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """The base URL (`http://127.0.0.1:PORT`)."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> FakeModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def dump(self, path: Path) -> None:
        """Write every request to `path` (JSON lines), to read what a client sent."""
        with path.open("w", encoding="utf-8") as out:
            for request in self.requests:
                out.write(json.dumps({"path": request.path, "body": request.body}) + "\n")

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                self._reply("application/json", b'{"data": [], "models": []}')

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                with model._lock:
                    model.requests.append(Recorded(self.path, body))
                    try:
                        content_type, data = model._answer(self.path, body)
                    except Exception:
                        model.errors.append(traceback.format_exc())
                        self.send_error(500)
                        return
                self._reply(content_type, data)

            def _reply(self, content_type: str, data: bytes) -> None:
                self.send_response(200)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        return Handler


def sse(events: list[tuple[str, dict[str, Any]]]) -> bytes:
    """Server-sent events, one `event:`/`data:` pair each."""
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events).encode()


CLAUDE_PREFIX = "mcp__git-memory__"
CODEX_NAMESPACE = "mcp__git_memory"


# Where a client lists deferred tools by name only, the tool that loads their schemas.
TOOL_SEARCH = "ToolSearch"
_SELECT_QUERY = re.compile(r"select:(?:" + re.escape(CLAUDE_PREFIX) + r"\w+,?)+")


@dataclass
class AnthropicAgent:
    """The Anthropic Messages API as Claude Code calls it, driven by a `ScriptedAgent`.

    When the client defers the server's tools (lists their names only and offers
    `ToolSearch`), the agent loads them first with the one `select:` query the server's
    instructions give, as a model that follows them would.
    """

    agent: ScriptedAgent = field(default_factory=ScriptedAgent)
    # The `memory_*` tools of each request that offered all of the everyday ones, by name.
    offered: list[dict[str, dict[str, Any]]] = field(default_factory=list)
    # How many model requests the client made, and the tool names of each.
    turns: list[list[str]] = field(default_factory=list)
    # The ToolSearch queries the agent made (one model request each).
    searches: list[str] = field(default_factory=list)

    def __call__(self, path: str, body: Any) -> tuple[str, bytes]:
        """Answer one request."""
        if "count_tokens" in path:
            return "application/json", b'{"input_tokens": 100}'
        self.turns.append([str(tool.get("name")) for tool in body.get("tools", [])])
        tools = {
            tool["name"].removeprefix(CLAUDE_PREFIX): tool
            for tool in body.get("tools", [])
            if str(tool.get("name", "")).startswith(CLAUDE_PREFIX)
        }
        call = None
        if set(EVERYDAY_TOOLS) <= set(tools):
            self.offered.append(tools)
            call = self.agent.next_call(_anthropic_results(body["messages"]))
        elif TOOL_SEARCH in self.turns[-1]:
            call = self._search(body)
        blocks: list[dict[str, Any]]
        if call is None:
            blocks = [{"type": "text", "text": "Done."}]
        else:
            name, arguments = call
            use_id = f"toolu_{len(self.agent.calls) + len(self.searches):02d}"
            if name != TOOL_SEARCH:
                name = CLAUDE_PREFIX + name
            blocks = [{"type": "tool_use", "id": use_id, "name": name, "input": arguments}]
        stop = "end_turn" if call is None else "tool_use"
        if body.get("stream"):
            return "text/event-stream", _anthropic_stream(body.get("model"), blocks, stop)
        message = _anthropic_message(body.get("model"), blocks, stop)
        return "application/json", json.dumps(message).encode()

    def _search(self, body: dict[str, Any]) -> Call | None:
        """The ToolSearch call of a model that follows the server's instructions: the
        `select:` query they give once they are in the request; while the client says the
        server is still connecting, a keyword search (which waits for it, the client says)."""
        # Claude Code puts the servers' instructions in the system prompt or in a system
        # message of the conversation.
        shown = json.dumps({k: v for k, v in body.items() if k != "tools"}, ensure_ascii=False)
        found = _SELECT_QUERY.search(shown)
        if found is not None and found.group().rstrip(",") not in self.searches:
            query = found.group().rstrip(",")
        elif found is None and "still connecting" in shown and not self.searches:
            self.searches.append(SERVER_NAME)
            return TOOL_SEARCH, {"query": SERVER_NAME, "max_results": len(EVERYDAY_TOOLS)}
        else:
            return None
        self.searches.append(query)
        return TOOL_SEARCH, {"query": query}


def _anthropic_results(messages: list[dict[str, Any]]) -> list[ToolResult]:
    """The results of the server's tools in the conversation (not those of the client's own
    tools, such as ToolSearch)."""
    names: dict[str, str] = {}
    results: list[ToolResult] = []
    for message in messages:
        content = message.get("content")
        if not isinstance(content, list):
            continue
        for block in content:
            if block.get("type") == "tool_use" and block["name"].startswith(CLAUDE_PREFIX):
                names[block["id"]] = block["name"].removeprefix(CLAUDE_PREFIX)
            elif block.get("type") == "tool_result" and block["tool_use_id"] in names:
                results.append((names[block["tool_use_id"]], _text(block.get("content"))))
    return results


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(_text(item.get("text", item.get("output", ""))) for item in content)
    return json.dumps(content)


def _anthropic_message(model: Any, blocks: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 10},
    }


def _anthropic_stream(model: Any, blocks: list[dict[str, Any]], stop: str) -> bytes:
    start = _anthropic_message(model, [], stop) | {"stop_reason": None}
    events: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": start})
    ]
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            opening = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            opening = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": opening},
            ),
            (
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 10},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return sse(events)


@dataclass
class ResponsesAgent:
    """The OpenAI Responses API as Codex calls it, driven by a `ScriptedAgent`."""

    agent: ScriptedAgent = field(default_factory=ScriptedAgent)
    offered: list[dict[str, dict[str, Any]]] = field(default_factory=list)
    # How many model requests the client made.
    turns: int = 0

    def __call__(self, path: str, body: Any) -> tuple[str, bytes]:
        """Answer one request."""
        if not path.rstrip("/").endswith("/responses"):
            return "application/json", b"{}"
        self.turns += 1
        tools: dict[str, dict[str, Any]] = {}
        for tool in body.get("tools", []):
            if tool.get("type") == "namespace" and tool.get("name") == CODEX_NAMESPACE:
                tools = {inner["name"]: inner for inner in tool.get("tools", [])}
        call = None
        if tools:
            self.offered.append(tools)
            call = self.agent.next_call(_responses_results(body.get("input", [])))
        if call is None:
            item: dict[str, Any] = {
                "type": "message",
                "id": "msg_fake",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": "Done.", "annotations": []}],
            }
        else:
            number = len(self.agent.calls)
            item = {
                "type": "function_call",
                "id": f"fc_{number}",
                "call_id": f"call_{number}",
                "namespace": CODEX_NAMESPACE,
                "name": call[0],
                "arguments": json.dumps(call[1]),
                "status": "completed",
            }
        usage = {
            "input_tokens": 10,
            "input_tokens_details": None,
            "output_tokens": 10,
            "output_tokens_details": None,
            "total_tokens": 20,
        }
        events = [
            ("response.created", {"type": "response.created", "response": {"id": "resp_fake"}}),
            (
                "response.output_item.added",
                {"type": "response.output_item.added", "output_index": 0, "item": item},
            ),
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": 0, "item": item},
            ),
            (
                "response.completed",
                {"type": "response.completed", "response": {"id": "resp_fake", "usage": usage}},
            ),
        ]
        return "text/event-stream", sse(events)


def _responses_results(items: list[dict[str, Any]]) -> list[ToolResult]:
    names: dict[str, str] = {}
    results: list[ToolResult] = []
    for item in items:
        if item.get("type") == "function_call":
            names[item["call_id"]] = item["name"]
        elif item.get("type") == "function_call_output":
            results.append((names.get(item["call_id"], "?"), _text(item.get("output"))))
    return results


@dataclass
class GenerateContentAgent:
    """Google's generateContent API as Gemini CLI calls it: the first main-loop turn (the
    streamed one) makes the tool call `first` when given, every other turn ends. `turns`
    keeps the text of every main-loop request."""

    first: Call | None = None
    turns: list[str] = field(default_factory=list)

    def __call__(self, path: str, body: Any) -> tuple[str, bytes]:
        """Answer one request."""
        parts: list[dict[str, Any]] = [{"text": "Done."}]
        streamed = ":streamGenerateContent" in path
        if streamed:
            self.turns.append(json.dumps(body, ensure_ascii=False))
            if len(self.turns) == 1 and self.first is not None:
                name, arguments = self.first
                parts = [{"functionCall": {"name": name, "args": arguments}}]
        chunk = {
            "candidates": [
                {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {
                "promptTokenCount": 10,
                "candidatesTokenCount": 10,
                "totalTokenCount": 20,
            },
        }
        if streamed:
            return "text/event-stream", f"data: {json.dumps(chunk)}\n\n".encode()
        return "application/json", json.dumps(chunk).encode()


@dataclass
class ChatCompletionsAgent:
    """OpenAI chat completions as Qwen Code calls them: every turn ends with a text answer.
    `turns` keeps the text of every request."""

    turns: list[str] = field(default_factory=list)

    def __call__(self, path: str, body: Any) -> tuple[str, bytes]:
        """Answer one request."""
        if not path.rstrip("/").endswith("/chat/completions"):
            return "application/json", b"{}"
        self.turns.append(json.dumps(body, ensure_ascii=False))
        usage = {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
        head = {"id": "chatcmpl-fake", "created": 0, "model": body.get("model")}
        if not body.get("stream"):
            message = {"role": "assistant", "content": "Done."}
            choice = {"index": 0, "message": message, "finish_reason": "stop"}
            reply = head | {"object": "chat.completion", "choices": [choice], "usage": usage}
            return "application/json", json.dumps(reply).encode()
        chunk = head | {"object": "chat.completion.chunk"}
        text = {"index": 0, "delta": {"role": "assistant", "content": "Done."}}
        stop = {"index": 0, "delta": {}, "finish_reason": "stop"}
        chunks = [chunk | {"choices": [text | {"finish_reason": None}]}]
        chunks.append(chunk | {"choices": [stop], "usage": usage})
        data = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
        return "text/event-stream", data.encode()
