"""Benchmark of `sessions show` on one large session: its time must grow linearly with size.

Generates one Claude Code session per size (turns of short prompts and large tool outputs,
so most outputs stay out of the index and are read back from the transcript), syncs it, and
measures in one process, per size: the JSON-parse ceiling of the file (the baseline), the
seconds and the peak traced memory of loading every turn as `sessions show` does. Prints one
JSON line; `linearity` is the time per MiB of the largest session over that of the smallest
(1.0 is linear; the quadratic reader this replaces gave about the ratio of the sizes).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

MIB = 1024 * 1024


def generate(path: Path, mib: float, seed: int = 20) -> int:
    """Write one Claude Code session of about `mib` MiB; returns its turn count."""
    rng = random.Random(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    base = {"sessionId": "big", "cwd": "/work/big", "version": "2.1.39"}
    turns, size = 0, 0
    with open(path, "w", encoding="utf-8") as handle:
        while size < mib * MIB:
            ts = f"2026-01-01T00:{turns // 60 % 60:02d}:{turns % 60:02d}.000Z"
            output = f"log line {rng.random()} of a long test run\n" * rng.randint(200, 2000)
            records = [
                {
                    **base,
                    "type": "user",
                    "timestamp": ts,
                    "message": {"role": "user", "content": f"step {turns}"},
                },
                {
                    **base,
                    "type": "assistant",
                    "timestamp": ts,
                    "message": {
                        "id": f"m{turns}",
                        "role": "assistant",
                        "content": [
                            {
                                "type": "tool_use",
                                "id": f"t{turns}",
                                "name": "Bash",
                                "input": {"command": "pytest"},
                            }
                        ],
                    },
                },
                {
                    **base,
                    "type": "user",
                    "timestamp": ts,
                    "message": {
                        "role": "user",
                        "content": [
                            {"type": "tool_result", "tool_use_id": f"t{turns}", "content": output}
                        ],
                    },
                },
            ]
            text = "".join(json.dumps(r) + "\n" for r in records)
            handle.write(text)
            size += len(text)
            turns += 1
    return turns


class _Worktree:
    """The few attributes `show` reads, for a session outside any repository."""

    def __init__(self, state: Path) -> None:
        self.state_home = state
        self.root = Path("/work/big")
        self.repository = None

    def config_value(self, key: str) -> str | None:
        return None


def measure_one(root: Path, mib: float) -> dict[str, Any]:
    """Ceiling, show time and peak memory for one session size."""
    from git_memory.sessions.listing import show
    from git_memory.sessions.sync import sync

    claude = root / f"claude{mib}"
    path = claude / "projects" / "-work-big" / "big.jsonl"
    turns = generate(path, mib)
    state = root / f"state{mib}"
    sync(state, roots=[("claude-code", claude)])
    started = time.perf_counter()
    for line in path.read_bytes().split(b"\n"):
        if line:
            json.loads(line)
    ceiling_s = time.perf_counter() - started
    from git_memory.sessions import index

    with index.reader(state) as conn:
        (key,) = conn.execute("SELECT session_key FROM sessions").fetchone()
    tracemalloc.start()
    started = time.perf_counter()
    found = show(_Worktree(state), key)
    show_s = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    if found is None or len(found[2]) != turns:
        raise SystemExit("show did not return every turn")
    actual = path.stat().st_size / MIB
    return {
        "mib": round(actual, 1),
        "turns": turns,
        "ceiling_s": round(ceiling_s, 3),
        "show_s": round(show_s, 3),
        "show_s_per_mib": round(show_s / actual, 4),
        "show_peak_mib": round(peak / MIB, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Entry point: prints one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="25,50,100", help="session sizes in MiB")
    args = parser.parse_args(argv)
    sizes = [float(size) for size in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="gm-bench-show-") as tmp:
        runs = [measure_one(Path(tmp), size) for size in sizes]
    linearity = runs[-1]["show_s_per_mib"] / max(runs[0]["show_s_per_mib"], 1e-9)
    ratio = runs[-1]["show_s"] / max(runs[-1]["ceiling_s"], 1e-9)
    result = {
        "runs": runs,
        "linearity": round(linearity, 2),
        "largest_show_over_ceiling": round(ratio, 2),
    }
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
