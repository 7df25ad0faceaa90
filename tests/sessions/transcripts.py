"""Builders of small Claude Code and Codex transcripts for the session tests."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"


def claude_user(
    text: Any, cwd: str, ts: str = "2026-03-01T10:00:00.000Z", **extra: Any
) -> dict[str, Any]:
    """A Claude Code user record."""
    return {
        "type": "user",
        "sessionId": "s",
        "cwd": cwd,
        "timestamp": ts,
        "uuid": os.urandom(6).hex(),
        "message": {"role": "user", "content": text},
        **extra,
    }


def claude_assistant(
    blocks: list[dict[str, Any]],
    cwd: str,
    message_id: str = "msg_1",
    ts: str = "2026-03-01T10:00:05.000Z",
) -> dict[str, Any]:
    """A Claude Code assistant record."""
    return {
        "type": "assistant",
        "sessionId": "s",
        "cwd": cwd,
        "timestamp": ts,
        "uuid": os.urandom(6).hex(),
        "message": {"id": message_id, "role": "assistant", "content": blocks},
    }


def tool_result(call_id: str, output: str, cwd: str, is_error: bool = False) -> dict[str, Any]:
    """A Claude Code tool result record."""
    block = {"type": "tool_result", "tool_use_id": call_id, "content": output, "is_error": is_error}
    return claude_user([block], cwd)


def claude_turn(prompt: str, answer: str, cwd: str, message_id: str) -> list[dict[str, Any]]:
    """A user prompt and a text answer."""
    return [
        claude_user(prompt, cwd),
        claude_assistant([{"type": "text", "text": answer}], cwd, message_id),
    ]


def codex_lines(cwd: str, prompts: list[str], terminal: bool = True) -> list[dict[str, Any]]:
    """An era-C rollout: session_meta, then per prompt the twin user messages and an answer."""

    def env(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"timestamp": "2026-03-02T09:00:00.000Z", "type": kind, "payload": payload}

    lines = [env("session_meta", {"id": "019c0000-0000-7000-8000-000000000001", "cwd": cwd})]
    for n, prompt in enumerate(prompts):
        lines += [
            env("event_msg", {"type": "user_message", "message": prompt}),
            env(
                "response_item",
                {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": prompt}],
                },
            ),
            env(
                "response_item",
                {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": f"answer {n}"}],
                },
            ),
            env("event_msg", {"type": "agent_message", "message": f"answer {n}"}),
        ]
        if terminal:
            lines.append(env("event_msg", {"type": "task_complete", "turn_id": str(n)}))
    return lines


def write_jsonl(path: Path, records: list[dict[str, Any]], mtime: float | None = None) -> Path:
    """Write records as JSON lines; optionally set the file's mtime."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def append_jsonl(path: Path, records: list[dict[str, Any]], mtime: float | None = None) -> None:
    """Append records to a transcript."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("".join(json.dumps(r) + "\n" for r in records))
    if mtime is not None:
        os.utime(path, (mtime, mtime))


def claude_path(claude_home: Path, session_id: str, slug: str = "-repo") -> Path:
    """`<CLAUDE_CONFIG_DIR>/projects/<slug>/<sessionId>.jsonl`."""
    return claude_home / "projects" / slug / f"{session_id}.jsonl"


def codex_path(codex_home: Path, session_id: str) -> Path:
    """`<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`."""
    return (
        codex_home
        / "sessions"
        / "2026"
        / "03"
        / "02"
        / f"rollout-2026-03-02T09-00-00-{session_id}.jsonl"
    )


def install_fixtures(claude_home: Path, codex_home: Path) -> None:
    """Copy every real transcript fixture into the layout its tool uses."""
    project = claude_home / "projects" / "-fixtures"
    subagents = project / "ae4a77f8-aedd-4bc1-888f-c94edc91af04" / "subagents"
    for source in sorted((FIXTURES / "claude-code").glob("*.jsonl")):
        if "__subagents__" in source.name:
            target = subagents / source.name.split("__subagents__")[1]
        else:
            target = project / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    day = codex_home / "sessions" / "2026" / "01" / "01"
    day.mkdir(parents=True, exist_ok=True)
    for source in sorted((FIXTURES / "codex").glob("*.jsonl")):
        shutil.copyfile(source, day / f"rollout-{source.name}")
