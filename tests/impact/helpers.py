"""Real histories for `git memory impact`: entries landing at known commits, and Claude Code
transcripts of sessions before and after, installed where the hermetic Claude home is."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.repos import Repo, git
from tests.sessions.transcripts import (
    claude_assistant,
    claude_path,
    claude_user,
    tool_result,
    write_jsonl,
)
from tests.verify.helpers import write_entry

LANDED = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def land(repo: Repo, entry_id: str, body: str, when: datetime = LANDED) -> str:
    """Write an approved entry and commit it at `when`; returns the commit."""
    write_entry(repo, entry_id, body)
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    dates = {"GIT_COMMITTER_DATE": stamp, "GIT_AUTHOR_DATE": stamp}
    git(repo.root, "add", "-A")
    git(repo.root, "commit", "-q", "-m", f"memory: {entry_id}", env=dates)
    return git(repo.root, "rev-parse", "HEAD").strip()


def session(
    claude_home: Path,
    repo: Repo,
    name: str,
    when: datetime,
    runs: list[tuple[str, bool]],
    *,
    prompt: str = "please get the tests green",
) -> Path:
    """One Claude Code session at `when` in the repository: a prompt, then each
    (command, failed) as a Bash call and its result."""
    cwd = str(repo.root.resolve())
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    records: list[dict[str, Any]] = [claude_user(prompt, cwd, ts=stamp)]
    for number, (command, failed) in enumerate(runs):
        call = f"toolu_{name}_{number}"
        block = {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": command}}
        records.append(claude_assistant([block], cwd, f"msg_{name}_{number}", ts=stamp))
        output = "E   ModuleNotFoundError: No module named 'app'" if failed else "3 passed"
        records.append(tool_result(call, output, cwd, is_error=failed))
    for record in records:
        record["sessionId"] = name
        record["timestamp"] = stamp
    return write_jsonl(claude_path(claude_home, name), records)


def days(start: datetime, count: int) -> list[datetime]:
    """`count` moments a day apart from `start`."""
    return [start + timedelta(days=n) for n in range(count)]
