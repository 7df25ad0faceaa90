"""Real histories for `git memory impact`: entries landing at known commits, and Claude Code
transcripts of sessions before and after, installed where the hermetic Claude home is."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from git_memory.assemble.entries import one_line
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


def land(
    repo: Repo, entry_id: str, body: str, when: datetime = LANDED, *, delivered: bool = True
) -> str:
    """Write an approved entry and commit it at `when`; returns the commit. `delivered`: the
    commit also puts its line in CLAUDE.md, as the team's instruction file lists it (else
    it is only in the memory root and no agent reads it)."""
    write_entry(repo, entry_id, body)
    if delivered:
        instructions = repo.root / "CLAUDE.md"
        listed = instructions.read_text() if instructions.exists() else "## Team memory\n\n"
        instructions.write_text(f"{listed}- {one_line(body)}\n")
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    dates = {"GIT_COMMITTER_DATE": stamp, "GIT_AUTHOR_DATE": stamp}
    git(repo.root, "add", "-A")
    git(repo.root, "commit", "-q", "-m", f"memory: {entry_id}", env=dates)
    return git(repo.root, "rev-parse", "HEAD").strip()


MISSING_MODULE = "E   ModuleNotFoundError: No module named 'app'"
# (command, failed) with the output a missing module prints when failed; or (command,
# failed, output).
Run = tuple[str, bool] | tuple[str, bool, str]


def session(
    claude_home: Path,
    repo: Repo,
    name: str,
    when: datetime | None,
    runs: Sequence[Run],
    *,
    prompt: str = "please get the tests green",
    directory: str = "",
) -> Path:
    """One Claude Code session at `when` (None: a transcript without timestamps) in the
    repository (in `directory` below its root): a prompt, then each run as a Bash call and
    its result."""
    cwd = str((repo.root / directory).resolve())
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S.000Z") if when else ""
    records: list[dict[str, Any]] = [claude_user(prompt, cwd, ts=stamp)]
    for number, run in enumerate(runs):
        command, failed = run[0], run[1]
        call = f"toolu_{name}_{number}"
        block = {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": command}}
        records.append(claude_assistant([block], cwd, f"msg_{name}_{number}", ts=stamp))
        output = run[2] if len(run) == 3 else (MISSING_MODULE if failed else "3 passed")
        records.append(tool_result(call, output, cwd, is_error=failed))
    for record in records:
        record["sessionId"] = name
        if when:
            record["timestamp"] = stamp
        else:
            record.pop("timestamp", None)
    return write_jsonl(claude_path(claude_home, name), records)


def sessions(
    claude_home: Path,
    repo: Repo,
    prefix: str,
    moments: Sequence[datetime],
    runs_of: Callable[[int], Sequence[Run]],
    *,
    directory: str = "",
) -> None:
    """One session per moment, the `n`th running `runs_of(n)`."""
    for number, when in enumerate(moments):
        name = f"{prefix}-{number}"
        session(claude_home, repo, name, when, runs_of(number), directory=directory)


def days(start: datetime, count: int) -> list[datetime]:
    """`count` moments a day apart from `start`."""
    return [start + timedelta(days=n) for n in range(count)]


def impact_report(gm: Any, repo: Repo, *args: str) -> Any:
    """Sync the sessions, then `git memory impact … --format json`."""
    assert gm(["sessions", "sync"], cwd=repo.root).exit_code == 0
    result = gm(["impact", *args, "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    return result.json()
