"""GitHub Copilot CLI sessions under `<home>` (`~/.copilot`), in their three layouts:

- `session-state/<id>/events.jsonl` with a `workspace.yaml` sidecar (current);
- `session-state/<id>.jsonl` (the flat event log of late 2025);
- `history-session-state/session_<id>_<epochMs>.json` (legacy single JSON, no cwd).
The event log is append-only (`{type, data, id, timestamp, parentId}`): `user.message`
opens a turn, `assistant.message` carries text and `toolRequests`, and
`tool.execution_complete` the result with a `success` flag (shell exit codes only as text,
`<exited with exit code N>`). The cwd comes from `session.start` (or a later
`session.resume`/`session.context_changed`) or from `workspace.yaml`. Sub-agent events (an
`agentId`) are skipped; `session.shutdown` ends the last turn.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

from git_memory.sessions.providers.base import Document, Provider, SourceFile, env_home, under, walk
from git_memory.sessions.providers.common import (
    call_pair,
    decode_document,
    json_or_text,
    mapping,
    objects,
    person_text,
    read_document,
    state_of,
    string,
)
from git_memory.sessions.records import (
    ASSISTANT,
    COMPLETED,
    FAILED,
    INLINE_LIMIT,
    TERMINAL,
    USER,
    Diagnostic,
    Event,
    first_sighting,
    line_result,
    text_of,
)
from git_memory.sessions.source_io import SourceRefused, is_regular

PROVIDER = "copilot-cli"
_LEGACY = re.compile(r"^session_(.+)_\d+\.json$")
_YAML_CWD = re.compile(r"^cwd:\s*(.+?)\s*$", re.MULTILINE)
_SEEN_CALLS = 256
_CONTEXT_EVENTS = ("session.start", "session.resume", "session.context_changed")


def find(home: str) -> list[SourceFile]:
    """Sessions of all three layouts."""
    out: list[SourceFile] = []
    for path, name, below in walk(os.path.join(home, "session-state")):
        if not below and name.endswith(".jsonl"):
            out.append(SourceFile(path, PROVIDER, name[: -len(".jsonl")], under(path, home)))
        elif below and "/" not in below and name == "events.jsonl":
            out.append(SourceFile(path, PROVIDER, below, under(path, home)))
    for path, name, below in walk(os.path.join(home, "history-session-state")):
        legacy = _LEGACY.match(name)
        if legacy and not below:
            out.append(SourceFile(path, PROVIDER, legacy.group(1), under(path, home)))
    return out


def seed(source: SourceFile) -> dict[str, Any]:
    """The cwd named by `workspace.yaml` next to an `events.jsonl`."""
    sidecar = os.path.join(os.path.dirname(source.path), "workspace.yaml")
    if not source.path.endswith("events.jsonl") or not is_regular(sidecar):
        return {}
    try:
        text = read_document(sidecar, 1024 * 1024).decode("utf-8", "replace")
    except (OSError, SourceRefused):
        return {}
    found = _YAML_CWD.search(text)
    return {"cwd": found.group(1).strip("'\"")} if found else {}


def new_state() -> dict[str, Any]:
    """Reader state of a file read from its start."""
    return {"cwd": None}


def read_record(record: dict[str, Any], offset: int, state: dict[str, Any]) -> list[Event]:
    """Events of one session event (unknown types give no events)."""
    kind, data = record.get("type"), record.get("data")
    if not isinstance(data, dict) or record.get("agentId"):
        return []
    ts = string(record.get("timestamp"))
    if kind in _CONTEXT_EVENTS:
        context = data.get("context")
        if isinstance(context, dict) and isinstance(context.get("cwd"), str):
            state["cwd"] = context["cwd"]
        return []
    cwd = state.get("cwd")
    if kind == "user.message":
        typed = person_text(text_of(data.get("content")))
        return [] if typed is None else [Event(USER, offset, ts, cwd, text=typed)]
    if kind == "assistant.message":
        return _assistant(data, offset, ts, cwd, state)
    if kind == "tool.execution_start":
        # Builds whose assistant messages carry no `toolRequests` name the call only here.
        call_id = string(data.get("toolCallId"))
        if not isinstance(data.get("toolName"), str) or not _first_sighting(call_id, state):
            return []
        call = (call_id, data["toolName"], json_or_text(data.get("arguments")))
        return call_pair(offset, ts, cwd, call, None)
    if kind == "tool.execution_complete":
        return [_result(data, offset, ts, cwd)]
    if kind == "session.shutdown":
        return [Event(TERMINAL, offset, ts, cwd, state=COMPLETED)]
    return []


def _first_sighting(call_id: str | None, state: dict[str, Any]) -> bool:
    """Whether a tool call id is new to this file (the last few hundred are remembered)."""
    return call_id is None or first_sighting(state.setdefault("calls", []), call_id, _SEEN_CALLS)


def _assistant(
    data: dict[str, Any], offset: int, ts: str | None, cwd: str | None, state: dict[str, Any]
) -> list[Event]:
    events: list[Event] = []
    text = text_of(data.get("content"))
    if text.strip():
        events.append(Event(ASSISTANT, offset, ts, cwd, text=text))
    for request in objects(data.get("toolRequests")):
        call_id = string(request.get("toolCallId"))
        if isinstance(request.get("name"), str) and _first_sighting(call_id, state):
            call = (
                string(request.get("toolCallId")),
                request["name"],
                json_or_text(request.get("arguments")),
            )
            events += call_pair(offset, ts, cwd, call, None)
    return events


def _result(data: dict[str, Any], offset: int, ts: str | None, cwd: str | None) -> Event:
    text = _result_text(data)
    state = FAILED if data.get("success") is False else state_of("success", text)
    for item in _contents(data):
        if item.get("type") == "shell_exit" and isinstance(item.get("exitCode"), int):
            state = COMPLETED if item["exitCode"] == 0 and state != FAILED else FAILED
    return line_result((offset, ts, cwd), text, string(data.get("toolCallId")), state)


def _contents(data: dict[str, Any]) -> list[dict[str, Any]]:
    result = data.get("result")
    items = result.get("contents") if isinstance(result, dict) else None
    return objects(items)


def _result_text(data: dict[str, Any]) -> str:
    result, error = data.get("result"), data.get("error")
    if isinstance(result, dict) and result.get("content") is not None:
        return text_of(result["content"])
    if isinstance(error, dict):
        return text_of(error.get("message"))
    return text_of(result)


KNOWN_PREFIXES = (
    "session.",
    "user.",
    "assistant.",
    "tool.",
    "hook.",
    "permission.",
    "system.",
    "subagent.",
    "skill.",
    "abort",
)


def unknown_type(record: dict[str, Any], state: dict[str, Any]) -> str | None:
    """The event's type when it belongs to no family this reader knows."""
    kind = record.get("type")
    if isinstance(kind, str) and kind.startswith(KNOWN_PREFIXES):
        return None
    return str(kind)


def deferred_result(record: dict[str, Any], call_id: str | None) -> tuple[str, str] | None:
    """(head as a sync stores it, full output) of the tool result `call_id` in this event."""
    data = record.get("data")
    if not isinstance(data, dict) or data.get("toolCallId") != call_id:
        return None
    text = _result_text(data)
    return text[:INLINE_LIMIT], text


def read_legacy(source: SourceFile) -> Document:
    """A legacy `history-session-state` JSON: its UI timeline (prompts without the injected
    reminders, answers, completed tool calls), or its chat messages when it has no
    timeline."""
    diagnostics: list[Diagnostic] = []
    record = decode_document(read_document(source.path), diagnostics) or {}
    timeline = objects(record.get("timeline"))
    events: list[Event] = []
    for ordinal, item in enumerate(timeline):
        events += _timeline_events(item, ordinal)
    if not timeline:
        chat = objects(record.get("chatMessages"))
        for ordinal, message in enumerate(chat):
            events += _chat_events(message, ordinal)
    return Document(events, diagnostics)


def _timeline_events(item: dict[str, Any], offset: int) -> list[Event]:
    kind, ts = item.get("type"), string(item.get("timestamp"))
    text = text_of(item.get("text"))
    if kind == "user":
        typed = person_text(text)
        return [] if typed is None else [Event(USER, offset, ts, None, text=typed)]
    if kind == "copilot":
        return [Event(ASSISTANT, offset, ts, None, text=text)] if text.strip() else []
    if kind == "tool_call_completed" and isinstance(item.get("name"), str):
        result = mapping(item.get("result"))
        output = text_of(result.get("log"))
        status = "failure" if result.get("type") == "failure" else "success"
        call = (string(item.get("callId")), item["name"], json_or_text(item.get("arguments")))
        return call_pair(offset, ts, None, call, (output, state_of(status, output)))
    return []


def _chat_events(message: dict[str, Any], offset: int) -> list[Event]:
    role, text = message.get("role"), text_of(message.get("content"))
    if role == "user":
        typed = person_text(text.split("<reminder>", 1)[0])
        return [] if typed is None else [Event(USER, offset, None, None, text=typed)]
    if role != "assistant":
        return []
    events = [Event(ASSISTANT, offset, None, None, text=text)] if text.strip() else []
    for call in objects(message.get("tool_calls")):
        function = call.get("function")
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            arguments = json_or_text(function.get("arguments"))
            events += call_pair(
                offset, None, None, (string(call.get("id")), function["name"], arguments), None
            )
    return events


PROVIDER_INFO = Provider(
    name=PROVIDER,
    label="Copilot CLI",
    variable="COPILOT_HOME",
    home=env_home("COPILOT_HOME", "~/.copilot"),
    find=find,
    lines=sys.modules[__name__],
    document=read_legacy,
    seed=seed,
)
