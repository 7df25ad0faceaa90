"""Focused cases of the new readers that the fixtures do not show."""

from __future__ import annotations

import json
from pathlib import Path

from git_memory.sessions.providers import copilot_cli, cursor, gemini_cli, qwen_code
from git_memory.sessions.providers.base import SourceFile
from git_memory.sessions.turns import build_turns


def test_copilot_calls_named_only_by_execution_start_are_paired_once() -> None:
    state = copilot_cli.new_state()
    records = [
        {"type": "user.message", "data": {"content": "list files"}},
        {"type": "assistant.message", "data": {"content": "", "toolRequests": []}},
        {"type": "tool.execution_start", "data": {"toolCallId": "t1", "toolName": "bash"}},
        {
            "type": "tool.execution_complete",
            "data": {
                "toolCallId": "t1",
                "success": True,
                "result": {"content": "x\n<exited with exit code 2>"},
            },
        },
        {
            "type": "assistant.message",
            "data": {
                "toolRequests": [
                    {"toolCallId": "t2", "name": "view", "arguments": '{"path": "/a"}'}
                ]
            },
        },
        {"type": "tool.execution_start", "data": {"toolCallId": "t2", "toolName": "view"}},
    ]
    events = [e for n, r in enumerate(records) for e in copilot_cli.read_record(r, n, state)]
    (turn,) = build_turns("k", events)
    assert [(c.name, c.state, c.input) for c in turn.tools] == [
        ("bash", "failed", None),
        ("view", "unknown", {"path": "/a"}),
    ]


def test_gemini_rewind_to_an_unknown_id_drops_every_message(tmp_path: Path) -> None:
    path = tmp_path / "tmp" / "p" / "chats" / "session-x.jsonl"
    path.parent.mkdir(parents=True)
    records = [
        {"sessionId": "s", "kind": "main"},
        {"id": "u1", "type": "user", "content": "gone"},
        {"$rewindTo": "nope"},
        {"id": "u2", "type": "user", "content": [{"text": "kept"}], "displayContent": "kept (@a)"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    read = gemini_cli.read(SourceFile(str(path), "gemini-cli", "s", "d"))
    assert [e.text for e in read.events] == ["kept (@a)"]


def test_qwen_prompt_stops_at_the_referenced_file_contents() -> None:
    parts = [
        {"text": "@src/a.py explain"},
        {"text": "\n--- Content from referenced files ---"},
        {"text": "secret file body"},
    ]
    record = {"type": "user", "cwd": "/w", "message": {"role": "user", "parts": parts}}
    (event,) = qwen_code.read_record(record, 0, qwen_code.new_state())
    assert (event.text, event.cwd) == ("@src/a.py explain", "/w")


def test_cursor_text_transcript_calls_arguments_and_patches(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text(
        "user:\n<user_query>\nfix it\n</user_query>\n\nassistant:\n[Thinking] planning\nhidden\n\n"
        "Looking.\n[Tool call] Read\n  path: /w/a.py\n\n[Tool result] Read\n\n"
        "assistant:\n[Tool call] ApplyPatch*** Begin Patch\n*** Update File: /w/a.py\n-x\n+y\n"
        "*** End Patch\n\nDone.\n"
    )
    read = cursor.read_text(SourceFile(str(path), "cursor", "t", "d"))
    (turn,) = build_turns("k", read.events)
    assert turn.user_text == "fix it"
    assert turn.assistant_text == "Looking.\n\nDone."
    assert [(c.name, c.input) for c in turn.tools] == [
        ("Read", {"path": "/w/a.py"}),
        (
            "ApplyPatch",
            {"patch": "*** Begin Patch\n*** Update File: /w/a.py\n-x\n+y\n*** End Patch"},
        ),
    ]
    assert all(call.output is None for call in turn.tools)  # Cursor records no results
