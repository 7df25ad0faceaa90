"""Codex rollout reader: one JSON object per line → normalized events.

Pure: no I/O. The era is detected per file from its first record:
- era B (bare JSONL): a header `{id, timestamp, instructions, git}`, `record_type: state`
  markers and bare response items without timestamps; human prompts are the `message`
  items with role `user` that are not injections; the cwd comes from the first
  `<environment_context><cwd>…</cwd>`.
- era C (`{timestamp, type, payload}` envelope, and its later additions): the first
  `session_meta` names the session and its cwd, `turn_context` refines the cwd, human prompts
  come from `event_msg user_message` (or `item_completed` `UserMessage` in paginated history)
  and the duplicated `response_item` user copies are ignored, so each prompt counts once.
Assistant text comes from `response_item` assistant messages only (never the `agent_message`
event twins). Calls pair with outputs by `call_id`; `task_complete`/`turn_aborted` end a turn.
A `session_meta` whose `source` is `exec` or `mcp`, or whose originator is an SDK, marks the
session as driven by a program (`state["program"]`): its prompts are not what a person typed.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

from git_memory.formats import bounded_json
from git_memory.sessions.providers.base import Provider, SourceFile, env_home, under, walk
from git_memory.sessions.providers.claude_code import is_hidden_text
from git_memory.sessions.records import (
    ASSISTANT,
    COMPLETED,
    FAILED,
    INLINE_LIMIT,
    SKILL,
    TERMINAL,
    TOOL_CALL,
    TOOL_RESULT,
    UNKNOWN,
    USER,
    Event,
    text_of,
    timestamp_of,
)

PROVIDER = "codex"

_ROLLOUT_PREFIX = re.compile(r"^rollout-(?:\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-)?")
_CWD = re.compile(r"<cwd>(.*?)</cwd>", re.DOTALL)
_SKILL = re.compile(r"^\s*<skill>\s*<name>(.*?)</name>", re.DOTALL)
_EXIT = re.compile(r"(?:Exit code:|Process exited with code)\s*(-?\d+)")
_IDE_REQUEST = "## My request for Codex:"
PROGRAM_SOURCES = ("exec", "mcp")
_CALL_ITEMS = ("function_call", "custom_tool_call", "local_shell_call", "web_search_call")
_OUTPUT_ITEMS = ("function_call_output", "custom_tool_call_output")


def new_state() -> dict[str, Any]:
    """Reader state of a file read from its start."""
    return {"era": None, "sessionId": None, "cwd": None, "ts": None, "subagent": False}


def read_record(record: dict[str, Any], offset: int, state: dict[str, Any]) -> list[Event]:
    """Events of one rollout line (unknown shapes give no events)."""
    if state["era"] is None:
        state["era"] = "C" if isinstance(record.get("payload"), dict) else "B"
    if state["era"] == "C":
        return _envelope(record, offset, state)
    return _bare(record, offset, state)


def _bare(record: dict[str, Any], offset: int, state: dict[str, Any]) -> list[Event]:
    if "type" not in record:
        if state["sessionId"] is None and isinstance(record.get("id"), str):
            state["sessionId"] = record["id"]
            state["ts"] = timestamp_of(record)
        return []
    return _item(record, offset, state["ts"], state, era_b=True)


def _envelope(record: dict[str, Any], offset: int, state: dict[str, Any]) -> list[Event]:
    kind, payload, ts = record.get("type"), record.get("payload"), timestamp_of(record)
    if not isinstance(payload, dict):
        return []
    if kind == "session_meta":
        _session_meta(payload, state)
    elif kind == "turn_context" and isinstance(payload.get("cwd"), str):
        state["cwd"] = payload["cwd"]
    elif kind == "response_item":
        return _item(payload, offset, ts, state, era_b=False)
    elif kind == "event_msg":
        return _event(payload, offset, ts, state)
    return []


def _session_meta(payload: dict[str, Any], state: dict[str, Any]) -> None:
    # The first session_meta defines the file; later ones belong to copied history.
    if state["sessionId"] is not None:
        return
    state["sessionId"] = payload.get("id") if isinstance(payload.get("id"), str) else ""
    if isinstance(payload.get("cwd"), str):
        state["cwd"] = payload["cwd"]
    source = payload.get("source")
    # `codex exec` (and the SDKs built on it) and MCP callers send prompts a program wrote.
    originator = payload.get("originator")
    state["program"] = source in PROGRAM_SOURCES or (
        isinstance(originator, str) and "sdk" in originator.casefold()
    )
    state["subagent"] = payload.get("thread_source") == "subagent" or (
        isinstance(source, dict) and "subagent" in source
    )


def _event(
    payload: dict[str, Any], offset: int, ts: str | None, state: dict[str, Any]
) -> list[Event]:
    kind, cwd = payload.get("type"), state["cwd"]
    if kind == "user_message" and isinstance(payload.get("message"), str):
        return _prompt(payload["message"], offset, ts, cwd)
    if kind == "item_completed" and isinstance(payload.get("item"), dict):
        item = payload["item"]
        if item.get("type") == "UserMessage":
            return _prompt(text_of(item.get("content")), offset, ts, cwd)
    if kind in ("task_complete", "turn_aborted"):
        failed = kind == "turn_aborted" or payload.get("error") is not None
        return [Event(TERMINAL, offset, ts, cwd, state=FAILED if failed else COMPLETED)]
    return []


def _prompt(text: str, offset: int, ts: str | None, cwd: str | None) -> list[Event]:
    skill = _SKILL.match(text)
    if skill:
        return [Event(SKILL, offset, ts, cwd, name=skill.group(1).strip())]
    if _IDE_REQUEST in text:
        text = text.split(_IDE_REQUEST, 1)[1].strip()
    if not text.strip() or is_hidden_text(text):
        return []
    return [Event(USER, offset, ts, cwd, text=text)]


def _item(
    item: dict[str, Any], offset: int, ts: str | None, state: dict[str, Any], *, era_b: bool
) -> list[Event]:
    kind = item.get("type")
    if kind == "message":
        return _message(item, offset, ts, state, era_b=era_b)
    if kind in _CALL_ITEMS:
        return [_call(item, offset, ts, state["cwd"])]
    if kind in _OUTPUT_ITEMS:
        output = item.get("output")
        call_id = item.get("call_id")
        if isinstance(output, str) and len(output) > INLINE_LIMIT:
            return [_large_result(item, output, offset, ts, state["cwd"])]
        return [
            Event(
                TOOL_RESULT,
                offset,
                ts,
                state["cwd"],
                text=_output_text(output),
                call_id=call_id if isinstance(call_id, str) else None,
                state=_result_state(item, output),
            )
        ]
    return []


def _large_result(
    item: dict[str, Any], output: str, offset: int, ts: str | None, cwd: str | None
) -> Event:
    """A large output is not decoded now: only its head and its state are kept."""
    call_id = item.get("call_id")
    return Event(
        TOOL_RESULT,
        offset,
        ts,
        cwd,
        text=output[:INLINE_LIMIT],
        call_id=call_id if isinstance(call_id, str) else None,
        state=_large_state(item, output),
        deferred=True,
    )


def _message(
    item: dict[str, Any], offset: int, ts: str | None, state: dict[str, Any], *, era_b: bool
) -> list[Event]:
    role, parts = item.get("role"), item.get("content")
    texts = [
        p["text"]
        for p in parts or []
        if isinstance(p, dict)
        and p.get("type") in ("input_text", "output_text", "text")
        and isinstance(p.get("text"), str)
    ]
    text = "\n\n".join(texts)
    if role == "assistant":
        return [Event(ASSISTANT, offset, ts, state["cwd"], text=text)] if text.strip() else []
    if role != "user":
        return []
    found = _CWD.search(text)
    if found and ((era_b and state["cwd"] is None) or not era_b):
        state["cwd"] = state["cwd"] or found.group(1).strip()
    if _SKILL.match(text):
        return _prompt(text, offset, ts, state["cwd"])
    return _prompt(text, offset, ts, state["cwd"]) if era_b else []


def _call(item: dict[str, Any], offset: int, ts: str | None, cwd: str | None) -> Event:
    kind = item["type"]
    name = item.get("name") if isinstance(item.get("name"), str) else kind
    if kind == "local_shell_call":
        name, arguments = "local_shell", item.get("action")
    elif kind == "web_search_call":
        name, arguments = "web_search", item.get("action")
    elif kind == "custom_tool_call":
        arguments = item.get("input")
    else:
        arguments = _json_or_text(item.get("arguments"))
    call_id = item.get("call_id")
    status = item.get("status")
    state = None
    if kind == "web_search_call":
        state = COMPLETED if status == "completed" else FAILED if status == "failed" else UNKNOWN
    return Event(
        TOOL_CALL,
        offset,
        ts,
        cwd,
        call_id=call_id if isinstance(call_id, str) else None,
        name=str(name),
        input=arguments,
        state=state,
    )


def _json_or_text(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return bounded_json.loads(value)
        except ValueError:
            return value
    return value


def _output_text(output: Any) -> str:
    if isinstance(output, str) and output.startswith("{"):
        decoded = _json_or_text(output)
        if isinstance(decoded, dict) and isinstance(decoded.get("output"), str):
            return str(decoded["output"])
    if isinstance(output, dict) and isinstance(output.get("content"), str):
        return str(output["content"])
    return text_of(output)


_EXIT_FIELD = re.compile(r'"exit_code"\s*:\s*(-?\d+)')


def _large_state(item: dict[str, Any], output: str) -> str:
    """The result state of a large output without decoding it: exit codes sit at its ends."""
    if item.get("error") or item.get("status") == "failed":
        return FAILED
    for window in (output[-400:], output[:400]):
        found = _EXIT_FIELD.search(window) or _EXIT.search(window)
        if found:
            return COMPLETED if int(found.group(1)) == 0 else FAILED
    return COMPLETED if item.get("status") in ("completed", "success") else UNKNOWN


def deferred_result(record: dict[str, Any], call_id: str | None) -> tuple[str, str] | None:
    """(head as a sync stores it, full output) of the large tool result `call_id` in this
    line."""
    item = record.get("payload") if isinstance(record.get("payload"), dict) else record
    if not isinstance(item, dict) or item.get("call_id") != call_id:
        return None
    output = item.get("output")
    if not isinstance(output, str):
        return None
    return output[:INLINE_LIMIT], _output_text(output)


def _result_state(item: dict[str, Any], output: Any) -> str:
    """failed on an error, a failed status or a non-zero exit code; completed on exit 0 or a
    success status; unknown otherwise."""
    if item.get("error") or item.get("status") == "failed":
        return FAILED
    code = item.get("exit_code")
    decoded = _json_or_text(output) if isinstance(output, str) else output
    if code is None and isinstance(decoded, dict):
        meta = decoded.get("metadata")
        code = meta.get("exit_code") if isinstance(meta, dict) else decoded.get("exit_code")
        if decoded.get("success") is False:
            return FAILED
        if code is None and decoded.get("success") is True:
            return COMPLETED
    if code is None and isinstance(output, str):
        found = _EXIT.search(output[:400])
        code = int(found.group(1)) if found else None
    if isinstance(code, int) and not isinstance(code, bool):
        return COMPLETED if code == 0 else FAILED
    if item.get("status") in ("completed", "success"):
        return COMPLETED
    return UNKNOWN


KNOWN_ENVELOPE_TYPES = frozenset(
    [
        "session_meta",
        "turn_context",
        "response_item",
        "event_msg",
        "compacted",
        "world_state",
        "inter_agent_communication",
        "inter_agent_communication_metadata",
        "security_risk_score",
        "realtime_item",
    ]
)
KNOWN_BARE_TYPES = frozenset(
    [
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "web_search_call",
    ]
)


def unknown_type(record: dict[str, Any], state: dict[str, Any]) -> str | None:
    """The line's type when this reader does not know it (reported once per file)."""
    kind = record.get("type")
    if state["era"] == "C":
        return None if isinstance(kind, str) and kind in KNOWN_ENVELOPE_TYPES else str(kind)
    if kind is None:
        return None  # the era-B header and `record_type: state` markers
    return None if isinstance(kind, str) and kind in KNOWN_BARE_TYPES else str(kind)


def rollouts(directory: str, home: str) -> list[SourceFile]:
    """`rollout-*.jsonl` and `rollout-*.jsonl.zst` files below `directory`."""
    out = []
    for path, name, _ in walk(directory):
        if name.startswith("rollout-") and (name.endswith(".jsonl") or name.endswith(".jsonl.zst")):
            stem = name.removesuffix(".zst").removesuffix(".jsonl")
            session_id = _ROLLOUT_PREFIX.sub("", stem) or stem
            out.append(SourceFile(path, PROVIDER, session_id, under(path, home)))
    return out


def find(home: str) -> list[SourceFile]:
    """Rollouts under `<home>/sessions/` and `<home>/archived_sessions/`, plain or zstd."""
    return rollouts(os.path.join(home, "sessions"), home) + rollouts(
        os.path.join(home, "archived_sessions"), home
    )


PROVIDER_INFO = Provider(
    name=PROVIDER,
    label="Codex",
    variable="CODEX_HOME",
    home=env_home("CODEX_HOME", "~/.codex"),
    find=find,
    lines=sys.modules[__name__],
)
