"""MCP start-up: how long after spawn `git memory mcp` answers `initialize` and `tools/list`.

Agent clients send their first model request when the handshake ends (Codex) or make the model
wait for it (Claude Code), so this is the figure a user feels. Each run spawns the installed
console script as a client does, in a fresh git repository, writes `initialize`, waits for the
answer, sends `notifications/initialized` and `tools/list`, waits again, then closes stdin and
times the exit. `python3 -c pass` is the baseline, spawned in the same run. Medians of at
least 10 runs; prints one JSON line. Goal: initialize_ms ≤ 500.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"},
    },
}


def _line(message: dict[str, object]) -> bytes:
    return (json.dumps(message) + "\n").encode()


def _one_session(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, float]:
    """Seconds from spawn to the initialize answer, to the tools/list answer, to exit."""
    started = time.perf_counter()
    process = subprocess.Popen(
        argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert process.stdin is not None
    assert process.stdout is not None
    process.stdin.write(_line(INITIALIZE))
    process.stdin.flush()
    if not process.stdout.readline():
        raise SystemExit(f"{argv} closed its output before answering initialize")
    initialized = time.perf_counter() - started
    process.stdin.write(_line({"jsonrpc": "2.0", "method": "notifications/initialized"}))
    process.stdin.write(_line({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
    process.stdin.flush()
    tools = json.loads(process.stdout.readline())["result"]["tools"]
    listed = time.perf_counter() - started
    if not tools:
        raise SystemExit("tools/list answered no tools")
    closing = time.perf_counter()
    process.stdin.close()
    process.wait(10)
    return initialized, listed, time.perf_counter() - closing


def _python_ms(runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def measure(runs: int) -> dict[str, float | int]:
    """Spawn the server `runs` times and the baseline as often; medians in milliseconds."""
    from tests.perf.bench_cli_startup import _git_memory_executable
    from tests.repos import make_repo

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        (base / "bin").mkdir()
        (base / "home").mkdir()
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(
            HOME=str(base / "home"),
            GIT_MEMORY_HOME=str(base / "state"),
            GIT_CONFIG_GLOBAL=str(base / "home" / ".gitconfig"),
            GIT_CONFIG_NOSYSTEM="1",
        )
        os.environ.update(env)
        repo = make_repo(base / "repo")
        argv = [_git_memory_executable(base / "bin"), "mcp"]
        sessions = [_one_session(argv, repo.root, env) for _ in range(runs)]
        python_ms = _python_ms(runs)
    initialize_ms = statistics.median(s[0] for s in sessions) * 1000
    return {
        "runs": runs,
        "initialize_ms": round(initialize_ms, 1),
        "tools_list_ms": round(statistics.median(s[1] for s in sessions) * 1000, 1),
        "exit_after_eof_ms": round(statistics.median(s[2] for s in sessions) * 1000, 1),
        "python_ms": round(python_ms, 1),
        "initialize_ratio": round(initialize_ms / python_ms, 2),
    }


def main() -> None:
    """Print the figures as one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="3 runs (for the test)")
    args = parser.parse_args()
    print(json.dumps(measure(3 if args.quick else max(args.runs, 10))))


if __name__ == "__main__":
    main()
