"""The transcript turn that wrote a memory item is cited beside the store item: Claude Code
wrote its auto memory topic file with a `Write` call, and the sessions index saw it."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from tests.agent_memory.conftest import BUILDERS, Project, review_and_promote
from tests.sessions.transcripts import (
    claude_assistant,
    claude_path,
    claude_user,
    codex_lines,
    codex_path,
    tool_result,
    write_jsonl,
)

PROMPT = "remember how we got past the port clash in the Go tests"
FLAKY = "debugging.md#Flaky tests#1"


def _transcript(project: Project, memory: Path) -> None:
    cwd = str(project.root.resolve())
    topic = memory / "debugging.md"
    write = {
        "type": "tool_use",
        "id": "w1",
        "name": "Write",
        "input": {"file_path": str(topic), "content": topic.read_text()},
    }
    read = {
        "type": "tool_use",
        "id": "r1",
        "name": "Read",
        "input": {"file_path": str(memory / "MEMORY.md")},
    }
    records = [
        claude_user(PROMPT, cwd),
        claude_assistant([write], cwd, "m1"),
        tool_result("w1", "File created successfully", cwd),
        claude_assistant([{"type": "text", "text": "Saved."}], cwd, "m2"),
        claude_user(
            "what do you remember about the integration tests?", cwd, "2026-03-01T11:00:00.000Z"
        ),
        claude_assistant([read], cwd, "m3", "2026-03-01T11:00:05.000Z"),
        tool_result("r1", (memory / "MEMORY.md").read_text(), cwd),
        claude_assistant(
            [{"type": "text", "text": "They need the db."}], cwd, "m4", "2026-03-01T11:00:09.000Z"
        ),
    ]
    home = project.homes["claude"]
    write_jsonl(claude_path(home, "memory-session"), records, time.time() - 3 * 3600)


def _evidence(review: dict[str, Any], key: str) -> list[dict[str, Any]]:
    (item,) = [
        i
        for i in review["items"]
        if any(key in e["display"] for s in i["statements"] for e in s["evidence"])
    ]
    return [e for s in item["statements"] for e in s["evidence"]]


def test_the_turn_that_wrote_an_item_is_its_evidence_too(project: Project) -> None:
    memory = BUILDERS["claude-auto-memory"][0](project)
    _transcript(project, memory)
    assert project.gm("sessions", "sync")[0] == 0
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    _, review = project.gm("review")
    flaky = _evidence(review, FLAKY)
    assert len(flaky) == 2
    (turn,) = [e for e in flaky if e["display"].startswith("the turn that wrote it")]
    assert turn["excerpt"] == PROMPT
    assert "2026-03-01T10:00:00" in turn["display"]
    # The turn that only read MEMORY.md wrote none of its items.
    index_item = _evidence(review, "MEMORY.md#Memory index#1")
    assert len(index_item) == 1
    review_and_promote(project)
    entries = "\n".join(p.read_text() for p in (project.root / ".memory" / "entries").glob("*.md"))
    assert "port 8080" in entries
    assert "memory-session" not in entries, "no session id reaches a committed file"


def test_without_a_sessions_index_the_store_item_alone_is_cited(project: Project) -> None:
    memory = BUILDERS["claude-auto-memory"][0](project)
    _transcript(project, memory)
    project.gm("harvest")
    _, review = project.gm("review")
    assert len(_evidence(review, FLAKY)) == 1


def test_the_gemini_turn_that_saved_a_memory_is_its_evidence_too(
    project: Project, hermetic_env: dict[str, Path]
) -> None:
    BUILDERS["gemini-memories"][0](project)
    chats = hermetic_env["gemini"] / ".gemini" / "tmp" / "app" / "chats"
    chats.mkdir(parents=True)
    (chats.parent / ".project_root").write_text(str(project.root.resolve()))
    fact = "The staging database is reset every night at 02:00 UTC."
    call = {"id": "c1", "name": "save_memory", "args": {"fact": fact}, "status": "success"}
    ts = "2026-04-25T02:41:19.832Z"
    conversation = {
        "sessionId": "g1",
        "projectHash": "x",
        "messages": [
            {"id": "u1", "timestamp": ts, "type": "user", "content": "remember the reset time"},
            {"id": "g1", "timestamp": ts, "type": "gemini", "content": "", "toolCalls": [call]},
        ],
    }
    chat = chats / "session-2026-04-25T02-41-g1.json"
    chat.write_text(json.dumps(conversation))
    old = time.time() - 3 * 3600
    os.utime(chat, (old, old))
    assert project.gm("sessions", "sync")[0] == 0
    project.gm("harvest")
    _, review = project.gm("review")
    reset = _evidence(review, "Gemini Added Memories#2")
    assert [e["excerpt"] for e in reset if "wrote it" in e["display"]] == [
        "remember the reset time"
    ]
    release = _evidence(review, "Gemini Added Memories#1")
    assert len(release) == 1, "the turn saved another memory"


def test_codex_memories_cite_the_sessions_their_tasks_name(project: Project) -> None:
    BUILDERS["codex-memories"][0](project)
    thread = "0196a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b"  # task 1 of the fixture's first block
    lines = codex_lines(str(project.root.resolve()), ["cut the patch release", "now tag it"])
    lines[0]["payload"]["id"] = thread
    write_jsonl(codex_path(project.homes["codex"], thread), lines, time.time() - 3 * 3600)
    assert project.gm("sessions", "sync")[0] == 0
    project.gm("harvest")
    _, review = project.gm("review")
    cited = _evidence(review, "Reusable knowledge#1")
    learned = [e for e in cited if e["display"].startswith("the first turn of the session")]
    assert [e["excerpt"] for e in learned] == ["cut the patch release"]
    assert all("[Task" not in item["content"] for item in review["items"])


def test_an_unreadable_sessions_index_leaves_the_store_item_alone(
    project: Project, hermetic_env: dict[str, Path]
) -> None:
    from git_memory.sessions.index import index_path

    BUILDERS["claude-auto-memory"][0](project)
    index_path(hermetic_env["state"]).write_bytes(b"not a database" * 100)
    code, harvested = project.gm("harvest")
    assert code == 0, harvested
    _, review = project.gm("review")
    assert len(_evidence(review, FLAKY)) == 1
