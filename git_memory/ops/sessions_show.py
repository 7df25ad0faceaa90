"""`git memory sessions show SESSION_OR_TURN_KEY`: the normalized turns."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import click

from git_memory.contracts.sessions import (
    SessionShow,
    SessionsShowRequest,
    ShownEdge,
    ShownToolCall,
    ShownTurn,
)
from git_memory.errors import UsageError
from git_memory.ops.base import OpContext, Operation
from git_memory.ops.registry import spec
from git_memory.ops.short_ids import ShortIds
from git_memory.sessions.keys import resolve_key
from git_memory.sessions.listing import show


def sessions_show(ctx: OpContext, request: SessionsShowRequest) -> SessionShow:
    """Show the normalized turns of a session (or one turn) from the session index.

    The key is a session or turn key, or any unique prefix of 4 or more of its hex digits
    (`sessions list` prints 7, more where they would not be unique). For people debugging
    the index: prints transcript text, tool inputs and outputs.
    """
    found = show(ctx.worktree, request.key)
    if found is None:
        raise UsageError(
            "GM_SESSION_NOT_FOUND",
            f"no indexed session or turn has the key {request.key[:16]}…",
            hint="run `git memory sessions sync`, then `git memory sessions list --all`",
        )
    records = found.turns
    return SessionShow(
        session_key=found.session_key,
        provider=found.provider,
        attribution=found.attribution,
        turns=[
            ShownTurn(
                turn_key=r.turn_key,
                ordinal=r.ordinal,
                started=r.started,
                ended=r.ended,
                closure=r.closure,
                revision=r.revision,
                user_text=r.user_text,
                assistant_text=r.assistant_text,
                tool_calls=[
                    ShownToolCall(
                        name=c.name,
                        call_id=c.call_id,
                        result_state=c.state,
                        input=c.input,
                        output=c.output,
                    )
                    for c in r.tool_calls
                ],
                skills=list(r.skills),
                evidence=[
                    ShownEdge(kind=e.kind, value=e.value, strength=e.strength) for e in r.evidence
                ],
            )
            for r in records
        ],
    )


def render(response: SessionShow, ids: ShortIds) -> str:
    """Turns as readable blocks: prompt, each tool call with its input (shortened), the
    answer and the evidence (the CLI prints control characters escaped, never obeyed)."""
    lines = [f"session {response.session_key} ({response.provider})"]
    if response.attribution:
        lines.append(f"attributed by {response.attribution}")
    keys = ids.of("session", (turn.turn_key for turn in response.turns))
    for turn in response.turns:
        key = keys[turn.turn_key]
        lines.append(f"\n## turn {turn.ordinal} {key} {turn.closure} {turn.started or ''}")
        lines.append(f"user: {turn.user_text}")
        for call in turn.tool_calls:
            shown = _shortened(" ".join(_input_text(call.input).split()), TOOL_INPUT_CHARS)
            lines.append(f"  tool {call.name} [{call.result_state}] {shown}".rstrip())
        if turn.assistant_text:
            lines.append(f"assistant: {turn.assistant_text}")
        lines += [f"  evidence {e.kind}: {e.value}" for e in turn.evidence if e.kind != "turn"]
    return "\n".join(lines)


TOOL_INPUT_CHARS = 160


def _input_text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _shortened(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _from_cli(ctx: OpContext, values: Mapping[str, Any]) -> SessionsShowRequest:
    return SessionsShowRequest(key=resolve_key(ctx.worktree.state_home, str(values["key"])))


OPERATION = Operation(
    spec=spec("sessions-show"),
    request_model=SessionsShowRequest,
    response_model=SessionShow,
    handler=sessions_show,
    cli_params=[click.Argument(["key"], metavar="SESSION_OR_TURN_KEY")],
    from_cli=_from_cli,
    render_text_with_ids=render,
)
