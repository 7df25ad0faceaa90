"""Large tool outputs are read back from the transcript and checksummed then."""

from __future__ import annotations

import os
import time
import zlib
from pathlib import Path
from typing import Any

from git_memory.repo.binding import discover_worktree
from git_memory.sessions.ingest import parse
from git_memory.sessions.providers import claude_code as claude
from git_memory.sessions.query import select_turns
from git_memory.sessions.records import TOOL_RESULT
from git_memory.sessions.turns import build_turns, session_key
from tests.repos import Repo
from tests.sessions.transcripts import (
    claude_assistant,
    claude_path,
    claude_user,
    tool_result,
    write_jsonl,
)

OLD = time.time() - 3 * 3600
BIG = "".join(f"output line {n}\n" for n in range(600))  # beyond the inline limit


def _transcript(cwd: str) -> list[dict[str, Any]]:
    call = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}}
    return [
        claude_user("build it", cwd),
        claude_assistant([call], cwd, "m1"),
        tool_result("t1", BIG, cwd),
        claude_assistant([{"type": "text", "text": "built"}], cwd, "m1"),
    ]


def _expected_revision(path: Path) -> str:
    """The revision with every tool result standing as the crc32 and size of its line."""
    data = path.read_bytes()
    events, _, _ = parse("claude-code", data, 0, claude.new_state())
    for event in events:
        if event.kind == TOOL_RESULT:
            line = data[event.offset : event.offset + event.size]
            event.fingerprint = zlib.crc32(line)
            event.text = BIG
    (turn,) = build_turns(session_key("claude-code", path.stem), events)
    return turn.revision


def test_read_back_output_and_revision(gm: Any, repo: Repo, hermetic_env: dict[str, Path]) -> None:
    path = write_jsonl(claude_path(hermetic_env["claude"], "rb"), _transcript(str(repo.root)), OLD)
    assert gm(["sessions", "sync"], cwd=repo.root).exit_code == 0
    (turn,) = select_turns(discover_worktree(repo.root))
    assert turn.tool_calls[0].output == BIG
    assert turn.revision == _expected_revision(path)


def test_a_changed_output_line_keeps_the_stored_head(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    path = write_jsonl(claude_path(hermetic_env["claude"], "rb"), _transcript(str(repo.root)), OLD)
    assert gm(["sessions", "sync"], cwd=repo.root).exit_code == 0
    worktree = discover_worktree(repo.root)
    (before,) = select_turns(worktree)
    # Same size, different first output line: not the line that was indexed.
    data = path.read_bytes()
    path.write_bytes(data.replace(b"output line 0\\n", b"OUTPUT LINE 0\\n", 1))
    os.utime(path, (OLD, OLD))
    (after,) = select_turns(worktree)
    head = after.tool_calls[0].output
    assert head is not None
    assert head == BIG[: len(head)]
    assert len(head) < len(BIG)
    assert after.revision != before.revision  # the output it stood for is not available
