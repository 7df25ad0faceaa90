"""Benchmark of `git memory impact` against reading the same sessions' rows from the index.

Builds a throw-away repository whose approved entries (traps, commands and rules in equal
parts) land over ten commits, and a Claude Code transcript per session (each runs a few
commands of a shared vocabulary, some failing, and asks one thing), synced into a fresh
index. Then measures in one process, interleaved and best of three:
- the baseline: reading every row `impact` reads (the worktree's sessions with their first
  turn's start, and their prompt and tool call and result events: fetched, and the JSON the
  index stores for each tool call's input decoded) and reading and parsing every entry file
  (what any reader of approved memory pays); both parts are reported;
- `impact` over every entry: landing commits, session activity, counting and verdicts.
Prints one JSON line. `--quick` makes 400 sessions and 40 entries (used by the test suite).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Run as a file, only this directory is on the module path: the checkout holds `tests.repos`.
PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))

COMMANDS = 200
SPAN_DAYS = 200
DAY = 86_400
START = 1_767_225_600  # 2026-01-01


def _transcript(path: Path, cwd: str, number: int, sessions: int) -> None:
    moment = START + (number * SPAN_DAYS * DAY) // sessions
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(moment))
    name = f"s{number:06d}"
    base = {"sessionId": name, "cwd": cwd, "timestamp": stamp, "version": "2.1.39"}
    ask = "Never run `pip install` here." if number % 97 == 0 else f"fix module {number % 50}"
    records: list[dict[str, Any]] = [
        {**base, "type": "user", "uuid": f"{name}u", "message": {"role": "user", "content": ask}}
    ]
    for step in range(3):
        target = (number * 7 + step * 13) % COMMANDS
        command = f"make fix-{target}" if step == 2 else f"make target-{target}"
        call = f"toolu_{name}_{step}"
        use = {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": command}}
        message = {"id": f"m{name}{step}", "role": "assistant", "content": [use]}
        records.append({**base, "type": "assistant", "uuid": f"{name}a{step}", "message": message})
        failed = (number + step) % 3 == 0
        result = {"type": "tool_result", "tool_use_id": call, "content": "ok", "is_error": failed}
        content = {"role": "user", "content": [result]}
        records.append({**base, "type": "user", "uuid": f"{name}r{step}", "message": content})
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def _body(number: int) -> str:
    from git_memory.extract.builtin.renderers import render_command_exit, render_command_fix

    target = number % COMMANDS
    if number % 3 == 0:
        return render_command_fix("variant", f"make target-{target}", "", f"make fix-{target}")
    if number % 3 == 1:
        return render_command_exit(f"make target-{target}", "build", 3)
    return f"Never run `make clean-{number}` in this repository; run `make target-{target}`."


def _build(root: Path, sessions: int, entries: int) -> tuple[Any, Path]:
    from git_memory.formats.entry import Entry, serialize_entry
    from tests.repos import git, make_repo

    repo = make_repo(root / "repo")
    entries_dir = repo.root / ".memory" / "entries"
    entries_dir.mkdir(parents=True)
    for batch in range(10):
        for number in range(batch, entries, 10):
            entry = Entry(id=f"entry-{number}", body=_body(number) + "\n")
            (entries_dir / f"entry-{number}.md").write_text(serialize_entry(entry))
        stamp = time.strftime(
            "%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(START + (batch + 1) * SPAN_DAYS * DAY // 11)
        )
        git(repo.root, "add", "-A")
        dates = {"GIT_COMMITTER_DATE": stamp, "GIT_AUTHOR_DATE": stamp}
        git(repo.root, "commit", "-q", "-m", f"memory {batch}", env=dates)
    claude = root / "claude" / "projects" / "-repo"
    claude.mkdir(parents=True)
    cwd = str(repo.root.resolve())
    for number in range(sessions):
        _transcript(claude / f"s{number:06d}.jsonl", cwd, number, sessions)
    return repo, root / "claude"


def _read_rows(worktree: Any) -> int:
    """Every row `impact` reads, fetched and its stored JSON decoded, and nothing more."""
    from git_memory.sessions import index
    from git_memory.sessions.query import attributed_cwds

    with index.reader(worktree.state_home) as conn:
        cwds = attributed_cwds(conn, worktree.root)
        marks = ",".join("?" * len(cwds))
        rows = conn.execute(
            "SELECT s.file_id, s.session_key, s.provider, min(t.started) FROM turns t"
            " JOIN sessions s ON s.session_key = t.session_key"
            f" WHERE t.cwd IN ({marks}) GROUP BY s.session_key",
            cwds,
        ).fetchall()
        events = conn.execute(
            "SELECT file_id, kind, call_id, name, input, state, text FROM events"
            " WHERE kind IN ('user', 'steer', 'tool_call', 'tool_result')"
            " ORDER BY file_id, offset, id"
        ).fetchall()
    for event in events:
        if event[4]:
            json.loads(event[4])
    return len(rows) + len(events)


def _read_entries(worktree: Any) -> int:
    """Every entry file read no-follow and parsed."""
    from git_memory.verify.check import memory_items

    return len(memory_items(worktree))


def _timed(function: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = function()
    return time.perf_counter() - started, result


def measure(sessions: int, entries: int) -> dict[str, Any]:
    """Build, sync, then time the baseline and `impact` alternately, best of three each."""
    from git_memory.impact.report import impact
    from git_memory.repo.binding import discover_worktree
    from git_memory.sessions.sync import sync

    with tempfile.TemporaryDirectory(prefix="gm-bench-impact-") as tmp:
        root = Path(tmp)
        os.environ["GIT_MEMORY_HOME"] = str(root / "state")
        repo, claude = _build(root, sessions, entries)
        worktree = discover_worktree(repo.root)
        sync_s, _ = _timed(lambda: sync(worktree.state_home, roots=[("claude-code", claude)]))
        reads, parses, impacts = [], [], []
        for _ in range(3):
            read_s, rows = _timed(lambda: _read_rows(worktree))
            parse_s, _ = _timed(lambda: _read_entries(worktree))
            impact_s, response = _timed(lambda: impact(worktree))
            reads.append(read_s)
            parses.append(parse_s)
            impacts.append(impact_s)
    best_read = min(reads) + min(parses)
    best_impact = min(impacts)
    return {
        "bench": "impact",
        "sessions": response.sessions,
        "entries": len(response.entries),
        "rows": rows,
        "verdicts": response.verdicts,
        "sync_s": round(sync_s, 2),
        "read_rows_s": round(min(reads), 4),
        "read_entries_s": round(min(parses), 4),
        "impact_s": round(best_impact, 4),
        "ratio_to_read": round(best_impact / best_read, 3),
        "under_2x": best_impact < 2 * best_read,
    }


def main() -> None:
    """Parse the flags, run, print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="400 sessions, 40 entries")
    args = parser.parse_args()
    sessions, entries = (400, 40) if args.quick else (10_000, 1_000)
    print(json.dumps(measure(sessions, entries)))


if __name__ == "__main__":
    main()
