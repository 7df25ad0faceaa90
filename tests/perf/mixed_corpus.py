"""A deterministic corpus in the on-disk formats of all seven agents, for the sync benchmark.

Claude Code and Codex files come from `bench_sessions_sync`; this module writes Gemini CLI
(JSON lines and the legacy single JSON), Qwen Code, Copilot CLI, Cursor and OpenCode (its
JSON storage tree) sessions of the same shape: short prompts, one to four tool calls per
turn, outputs from a few hundred bytes to hundreds of KiB.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

MIB = 1024 * 1024
Text = Callable[[random.Random, int], str]
Output = Callable[[random.Random], str]


def _write_lines(path: Path, records: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _write_json(path: Path, value: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


def _ts(n: int) -> str:
    return f"2026-01-01T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}.000Z"


def _gemini_messages(rng: random.Random, turns: int, text: Text, output: Output) -> list[Any]:
    messages: list[Any] = []
    for turn in range(turns):
        messages.append(
            {"id": f"u{turn}", "timestamp": _ts(turn), "type": "user", "content": text(rng, 25)}
        )
        calls = [
            {
                "id": f"run_shell_command_{turn}_{n}",
                "name": "run_shell_command",
                "args": {"command": "pytest -q"},
                "status": "success",
                "timestamp": _ts(turn),
                "result": [
                    {
                        "functionResponse": {
                            "id": f"c{turn}{n}",
                            "name": "run_shell_command",
                            "response": {"output": output(rng) + "\nExit Code: 0"},
                        }
                    }
                ],
            }
            for n in range(rng.randint(1, 4))
        ]
        messages.append(
            {
                "id": f"g{turn}",
                "timestamp": _ts(turn),
                "type": "gemini",
                "content": text(rng, 60),
                "toolCalls": calls,
            }
        )
    return messages


def gemini(root: Path, n: int, rng: random.Random, text: Text, output: Output) -> Path:
    """One Gemini CLI session: JSON lines for even `n`, the legacy JSON for odd."""
    chats = root / "gemini" / "tmp" / f"project{n % 5}" / "chats"
    messages = _gemini_messages(rng, rng.randint(2, 12), text, output)
    meta = {"sessionId": f"s{n}", "projectHash": "0" * 64, "startTime": _ts(0), "kind": "main"}
    if n % 2:
        return _write_json(
            chats / f"session-2026-01-01T00-00-{n:08d}.json", {**meta, "messages": messages}
        )
    records: list[dict[str, Any]] = [meta]
    for message in messages:
        records += [message, {"$set": {"lastUpdated": message["timestamp"]}}]
    return _write_lines(chats / f"session-2026-01-01T00-00-{n:08d}.jsonl", records)


def qwen(root: Path, n: int, rng: random.Random, text: Text, output: Output) -> Path:
    """One Qwen Code session."""
    base = {"sessionId": f"q{n}", "cwd": f"/work/project{n % 5}", "version": "0.14.0"}
    records: list[dict[str, Any]] = []
    for turn in range(rng.randint(2, 12)):
        ts = _ts(turn)
        user = {"role": "user", "parts": [{"text": text(rng, 25)}]}
        records.append(
            {**base, "uuid": f"u{turn}", "timestamp": ts, "type": "user", "message": user}
        )
        ids = [f"call_{turn}_{c}" for c in range(rng.randint(1, 4))]
        parts = [{"text": text(rng, 60)}] + [
            {"functionCall": {"id": i, "name": "run_shell_command", "args": {"command": "ls"}}}
            for i in ids
        ]
        model = {"role": "model", "parts": parts}
        records.append(
            {**base, "uuid": f"a{turn}", "timestamp": ts, "type": "assistant", "message": model}
        )
        for i in ids:
            response = {"id": i, "name": "run_shell_command", "response": {"output": output(rng)}}
            records.append(
                {
                    **base,
                    "uuid": f"r{i}",
                    "timestamp": ts,
                    "type": "tool_result",
                    "message": {"role": "user", "parts": [{"functionResponse": response}]},
                    "toolCallResult": {"callId": i, "status": "success"},
                }
            )
    return _write_lines(root / "qwen" / "projects" / f"p{n % 5}" / "chats" / f"q{n}.jsonl", records)


def copilot(root: Path, n: int, rng: random.Random, text: Text, output: Output) -> Path:
    """One Copilot CLI session (current directory layout)."""

    def event(kind: str, data: dict[str, Any], turn: int) -> dict[str, Any]:
        return {
            "type": kind,
            "data": data,
            "id": f"e{kind}{turn}",
            "timestamp": _ts(turn),
            "parentId": None,
        }

    context = {"cwd": f"/work/project{n % 5}"}
    records = [event("session.start", {"sessionId": f"c{n}", "version": 1, "context": context}, 0)]
    for turn in range(rng.randint(2, 12)):
        ids = [f"toolu_{turn}_{c}" for c in range(rng.randint(1, 4))]
        requests = [{"toolCallId": i, "name": "bash", "arguments": {"command": "ls"}} for i in ids]
        records.append(event("user.message", {"content": text(rng, 25)}, turn))
        records.append(
            event("assistant.message", {"content": text(rng, 60), "toolRequests": requests}, turn)
        )
        for i in ids:
            result = {"content": output(rng) + "\n<exited with exit code 0>"}
            records.append(
                event(
                    "tool.execution_complete",
                    {"toolCallId": i, "success": True, "result": result},
                    turn,
                )
            )
    return _write_lines(root / "copilot" / "session-state" / f"c{n}" / "events.jsonl", records)


def cursor(root: Path, n: int, rng: random.Random, text: Text, output: Output) -> Path:
    """One Cursor transcript (tool calls, no results: that is the format)."""
    records: list[dict[str, Any]] = []
    for _ in range(rng.randint(2, 12)):
        query = f"<user_query>\n{text(rng, 25)}\n</user_query>"
        records.append({"role": "user", "message": {"content": [{"type": "text", "text": query}]}})
        # No tool results are written: the text is the answer only.
        blocks: list[dict[str, Any]] = [{"type": "text", "text": text(rng, 200)}]
        blocks += [
            {"type": "tool_use", "name": "Shell", "input": {"command": "ls"}}
            for _ in range(rng.randint(1, 4))
        ]
        records.append({"role": "assistant", "message": {"content": blocks}})
    slug = f"work-project{n % 5}"
    return _write_lines(
        root / "cursor" / "projects" / slug / "agent-transcripts" / f"u{n}.jsonl", records
    )


def opencode(root: Path, n: int, rng: random.Random, text: Text, output: Output) -> list[Path]:
    """One OpenCode session in the JSON storage tree (a file per session, message and part)."""
    storage = root / "opencode" / "storage"
    session = f"ses_{n:08d}"
    files = [
        _write_json(
            storage / "session" / "global" / f"{session}.json",
            {"id": session, "projectID": "global", "directory": f"/work/project{n % 5}"},
        )
    ]
    for turn in range(rng.randint(2, 12)):
        for role in ("user", "assistant"):
            message = f"msg_{n:08d}{turn:04d}{role[0]}"
            info = {
                "id": message,
                "sessionID": session,
                "role": role,
                "time": {"created": 1767225600000 + turn},
            }
            files.append(_write_json(storage / "message" / session / f"{message}.json", info))
            parts: list[dict[str, Any]] = [
                {"type": "text", "text": text(rng, 25 if role == "user" else 60)}
            ]
            if role == "assistant":
                parts += [
                    {
                        "type": "tool",
                        "tool": "bash",
                        "callID": f"call_{turn}_{c}",
                        "state": {
                            "status": "completed",
                            "input": {"command": "ls"},
                            "output": output(rng),
                            "metadata": {"exit": 0},
                        },
                    }
                    for c in range(rng.randint(1, 4))
                ]
            for number, part in enumerate(parts):
                path = storage / "part" / message / f"prt_{message}{number:03d}.json"
                files.append(_write_json(path, {"id": path.stem, "messageID": message, **part}))
    return files


def generate_mixed(
    root: Path,
    target_mib: float,
    writers: tuple[Text, Output, Callable[[Path, float], list[Path]]],
    seed: int = 7,
) -> tuple[list[Path], list[tuple[str, Path]]]:
    """Write about `target_mib` of sessions of the five agents above plus Claude Code and
    Codex (`writers`: the benchmark's text, output and Claude/Codex corpus generators);
    returns every file and the (provider, home) roots to sync."""
    text, output, classic = writers
    rng = random.Random(seed)
    files = classic(root / "classic", target_mib * 2 / 7)
    formats = (gemini, qwen, copilot, cursor)
    total, number = 0, 0
    while total < target_mib * MIB * 5 / 7:
        number += 1
        if number % 5 == 0:
            written = opencode(root, number, rng, text, output)
        else:
            written = [formats[number % 5 - 1](root, number, rng, text, output)]
        files += written
        total += sum(p.stat().st_size for p in written)
    roots = [
        ("claude-code", root / "classic" / "claude"),
        ("codex", root / "classic" / "codex"),
        ("gemini-cli", root / "gemini"),
        ("qwen-code", root / "qwen"),
        ("opencode", root / "opencode"),
        ("copilot-cli", root / "copilot"),
        ("cursor", root / "cursor"),
    ]
    return files, roots
