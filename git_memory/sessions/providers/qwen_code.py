"""Qwen Code chat records: `<home>/projects/<sanitized cwd>/chats/<sessionId>.jsonl`.

One JSON object per line, append-only (docs/sessions.md): `user`, `assistant`,
`tool_result` and `system` records, each with its `cwd`. Assistant `functionCall` parts are
tool calls; a `tool_result` record's `functionResponse` part and `toolCallResult.status` are
its result (shell exit codes only in the output text). `@file` expansions after the
"--- Content from referenced files ---" marker and injected hook context are not prompt
text; sidechain (sub-agent) records are skipped. The directory name is a lossy rewrite of the
cwd, so the cwd always comes from the records. Versions up to 0.0.14 kept Gemini CLI's
`tmp/<hash>/chats/session-*.json` recordings; those are read by the Gemini CLI reader.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from git_memory.sessions.providers import gemini_cli
from git_memory.sessions.providers.base import Document, Provider, SourceFile, env_home, under, walk
from git_memory.sessions.providers.common import (
    call_pair,
    function_output,
    mapping,
    objects,
    person_text,
    state_of,
    string,
)
from git_memory.sessions.records import (
    ASSISTANT,
    INLINE_LIMIT,
    USER,
    Event,
    line_result,
)

PROVIDER = "qwen-code"
_REFERENCED = "--- Content from referenced files ---"
KNOWN_TYPES = frozenset(["user", "assistant", "tool_result", "system"])


def find(home: str) -> list[SourceFile]:
    """`projects/*/chats/*.jsonl`, and the legacy `tmp/*/chats/session-*.json` files."""
    out: list[SourceFile] = []
    for path, name, below in walk(os.path.join(home, "projects")):
        parts = below.split("/")
        if len(parts) == 2 and parts[1] == "chats" and name.endswith(".jsonl"):
            out.append(SourceFile(path, PROVIDER, name[: -len(".jsonl")], under(path, home)))
    legacy = gemini_cli.chat_files(os.path.join(home, "tmp"), home, PROVIDER)
    return out + [f for f in legacy if f.path.endswith(".json")]


def new_state() -> dict[str, Any]:
    """Reader state of a file read from its start."""
    return {"sessionId": None}


def read_record(record: dict[str, Any], offset: int, state: dict[str, Any]) -> list[Event]:
    """Events of one chat record (unknown shapes give no events)."""
    if record.get("isSidechain") is True:
        return []
    if state.get("sessionId") is None and isinstance(record.get("sessionId"), str):
        state["sessionId"] = record["sessionId"]
    kind, ts, cwd = record.get("type"), string(record.get("timestamp")), string(record.get("cwd"))
    message = record.get("message")
    parts = message.get("parts") if isinstance(message, dict) else None
    if not isinstance(parts, list):
        return []
    if kind == "user":
        text = _prompt(parts)
        return [Event(USER, offset, ts, cwd, text=text)] if text else []
    if kind == "assistant":
        return _assistant(parts, offset, ts, cwd)
    if kind == "tool_result":
        return _results(record, parts, offset, ts, cwd)
    return []


def _prompt(parts: list[Any]) -> str | None:
    texts: list[str] = []
    for part in parts:
        text = part.get("text") if isinstance(part, dict) else None
        if not isinstance(text, str):
            continue
        if text.strip().startswith(_REFERENCED):
            break  # what follows is the content of `@file` references
        typed = person_text(text)
        if typed is not None:
            texts.append(typed)
    text = "".join(texts)
    return text if text.strip() else None


def _assistant(parts: list[Any], offset: int, ts: str | None, cwd: str | None) -> list[Event]:
    events: list[Event] = []
    for part in parts:
        if not isinstance(part, dict):
            continue
        if isinstance(part.get("text"), str) and not part.get("thought") and part["text"].strip():
            events.append(Event(ASSISTANT, offset, ts, cwd, text=part["text"]))
        call = part.get("functionCall")
        if isinstance(call, dict) and isinstance(call.get("name"), str):
            events += call_pair(
                offset, ts, cwd, (string(call.get("id")), call["name"], call.get("args")), None
            )
    return events


def _results(
    record: dict[str, Any], parts: list[Any], offset: int, ts: str | None, cwd: str | None
) -> list[Event]:
    summary = record.get("toolCallResult")
    status = string(summary.get("status")) if isinstance(summary, dict) else None
    events: list[Event] = []
    for part in parts:
        response = part.get("functionResponse") if isinstance(part, dict) else None
        if not isinstance(response, dict):
            continue
        text = function_output(response.get("response"))
        state = state_of(status or "success", text)
        events.append(line_result((offset, ts, cwd), text, string(response.get("id")), state))
    return events


def unknown_type(record: dict[str, Any], state: dict[str, Any]) -> str | None:
    """The record's type when this reader does not know it (reported once per file)."""
    kind = record.get("type")
    return None if isinstance(kind, str) and kind in KNOWN_TYPES else str(kind)


def deferred_result(record: dict[str, Any], call_id: str | None) -> tuple[str, str] | None:
    """(head as a sync stores it, full output) of the tool result `call_id` in this record."""
    message = record.get("message")
    for part in objects(mapping(message).get("parts")):
        response = part.get("functionResponse")
        if isinstance(response, dict) and response.get("id") == call_id:
            text = function_output(response.get("response"))
            return text[:INLINE_LIMIT], text
    return None


def read_legacy(source: SourceFile) -> Document:
    """A pre-0.3 recording (Gemini CLI's single JSON layout)."""
    return gemini_cli.read(source)


PROVIDER_INFO = Provider(
    name=PROVIDER,
    label="Qwen Code",
    variable="QWEN_RUNTIME_DIR",
    home=env_home("QWEN_RUNTIME_DIR", "~/.qwen"),
    find=find,
    lines=sys.modules[__name__],
    document=read_legacy,
)
