"""`sessions show` of a large session reads its transcript about once, not once per turn."""

from __future__ import annotations

from pathlib import Path

from git_memory.sessions import index
from git_memory.sessions.listing import show
from git_memory.sessions.sync import sync
from tests.perf.bench_sessions_show import _Worktree, generate


def _bytes_read() -> int:
    # Every read(2)/pread(2) of this process, page cache or not (Linux accounting).
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


def test_show_reads_each_large_output_once(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    transcript = claude / "projects" / "-work-big" / "big.jsonl"
    turns = generate(transcript, 4)
    state = tmp_path / "state"
    sync(state, roots=[("claude-code", claude)])
    with index.reader(state) as conn:
        (key,) = conn.execute("SELECT session_key FROM sessions").fetchone()
    before = _bytes_read()
    found = show(_Worktree(state), key)
    read = _bytes_read() - before
    assert found is not None
    assert len(found[2]) == turns > 50
    # Reading the whole transcript for every turn (what made a 200 MB session take minutes)
    # reads `turns` times its size; reading each output back once reads about its size.
    assert read < 3 * transcript.stat().st_size
