"""Every reader takes any JSON value without raising: unexpected shapes give no events."""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from git_memory.sessions.providers.base import SourceFile
from git_memory.sessions.providers.table import providers
from git_memory.sessions.records import Event

_KEYS = st.sampled_from(
    [
        "type",
        "role",
        "message",
        "content",
        "parts",
        "data",
        "toolCalls",
        "toolRequests",
        "result",
        "text",
        "id",
        "$set",
        "$rewindTo",
        "messages",
        "timeline",
        "status",
        "functionCall",
        "functionResponse",
        "response",
        "output",
        "context",
        "cwd",
        "kind",
        "name",
        "args",
        "arguments",
        "success",
        "tool_use",
        "timestamp",
        "user",
        "gemini",
    ]
)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8) | _KEYS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=5),
    max_leaves=25,
)
_RECORDS = st.dictionaries(_KEYS, _VALUES, max_size=6)


@settings(max_examples=150, deadline=None)
@given(st.lists(_RECORDS, max_size=4))
@example([{"message": {"content": True}}])  # a tool result looked up in a scalar content
def test_line_readers_never_raise(records: list[dict[str, Any]]) -> None:
    for provider in providers().values():
        if provider.lines is None:
            continue
        state = provider.lines.new_state()
        for offset, record in enumerate(records):
            events = provider.lines.read_record(record, offset, state)
            assert all(isinstance(event, Event) for event in events)
            provider.lines.unknown_type(record, state)
            provider.lines.deferred_result(record, "x")


@settings(max_examples=80, deadline=None)
@given(_RECORDS, st.lists(_RECORDS, max_size=4))
def test_document_readers_never_raise(
    document: dict[str, Any], lines: list[dict[str, Any]]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        chats = os.path.join(tmp, "tmp", "p", "chats")
        os.makedirs(chats)
        cases = {
            "gemini-cli": (os.path.join(chats, "session-a.json"), json.dumps(document)),
            "qwen-code": (os.path.join(chats, "session-b.json"), json.dumps(document)),
            "copilot-cli": (os.path.join(tmp, "session_c_1.json"), json.dumps(document)),
            "cursor": (os.path.join(tmp, "d.txt"), "\n".join(map(str, lines))),
        }
        cases["gemini-cli-lines"] = (
            os.path.join(chats, "session-e.jsonl"),
            "".join(json.dumps(r) + "\n" for r in [document, *lines]),
        )
        for name, (path, text) in cases.items():
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            provider = providers()[name.removesuffix("-lines")]
            assert provider.document is not None
            read = provider.document(SourceFile(path, provider.name, "s", "d"))
            assert all(isinstance(event, Event) for event in read.events)
