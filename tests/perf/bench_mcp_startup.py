"""MCP start-up: how long after spawn `git memory mcp` answers what an agent client asks first.

Clients spawn the server through git, as the shipped snippets register it (`git memory mcp`:
git, then the console script), and wait for its first answers before the server counts as
connected. Claude Code 2.1.332 and later open with the 2026 protocol's `server/discover` and
then `tools/list`, each with its per-request envelope; older clients (Claude Code 2.1.197,
Codex) with `initialize`, then `tools/list`. This spawns `git memory mcp` through git in a
fresh git repository and times both openings from spawn, the first tool call of the second
(`memory_status`: the MCP SDK and the operations loaded), and the exit after stdin closes.
`python3 -c pass` is the baseline, spawned in the same run. Medians of at least 10 runs;
prints one JSON line. Goal: discover_ms and initialize_ms ≤ 500 (Claude Code's own debug log
measures the connect the same way, from spawn to the first answer).
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
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"},
    },
}
# The per-request envelope as Claude Code 2.1.332 sends it.
ENVELOPE = {
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
    }
}


def _line(message: dict[str, object]) -> bytes:
    return (json.dumps(message) + "\n").encode()


def _spawn(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def _answer(process: subprocess.Popen[bytes], *messages: dict[str, object]) -> dict[str, object]:
    """Send `messages`, read one answer (the result of the last one)."""
    assert process.stdin is not None
    assert process.stdout is not None
    for message in messages:
        process.stdin.write(_line(message))
    process.stdin.flush()
    line = process.stdout.readline()
    if not line:
        raise SystemExit(f"the server closed its output before answering {messages[-1]}")
    answer: dict[str, object] = json.loads(line)
    if "result" not in answer:
        raise SystemExit(f"{messages[-1]['method']} failed: {answer}")
    return answer


def _close(process: subprocess.Popen[bytes]) -> float:
    """Close stdin; seconds until the process exited."""
    assert process.stdin is not None
    closing = time.perf_counter()
    process.stdin.close()
    process.wait(10)
    return time.perf_counter() - closing


def _modern_session(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Seconds from spawn to the `server/discover` answer and to the `tools/list` answer."""
    started = time.perf_counter()
    process = _spawn(argv, cwd, env)
    _answer(process, {"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": ENVELOPE})
    discovered = time.perf_counter() - started
    _answer(process, {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": ENVELOPE})
    listed = time.perf_counter() - started
    _close(process)
    return discovered, listed


def _one_session(
    argv: list[str], cwd: Path, env: dict[str, str]
) -> tuple[float, float, float, float]:
    """Seconds from spawn to the initialize answer, to the tools/list answer, to the first
    tool call's answer, and from closing stdin to exit."""
    started = time.perf_counter()
    process = _spawn(argv, cwd, env)
    _answer(process, INITIALIZE)
    initialized = time.perf_counter() - started
    listed_answer = _answer(
        process,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    )
    listed = time.perf_counter() - started
    result = listed_answer["result"]
    if not isinstance(result, dict) or not result.get("tools"):
        raise SystemExit("tools/list answered no tools")
    call = {"name": "memory_status", "arguments": {}}
    _answer(process, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
    called = time.perf_counter() - started
    return initialized, listed, called, _close(process)


def _python_ms(runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def measure(runs: int) -> dict[str, float | int]:
    """Spawn the server `runs` times each way and the baseline as often; medians in ms."""
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
        # `git memory` finds the console script on PATH, as it does for a client.
        executable = Path(_git_memory_executable(base / "bin"))
        if executable.parent != base / "bin":
            (base / "bin" / "git-memory").symlink_to(executable)
        env["PATH"] = f"{base / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        argv = ["git", "memory", "mcp"]
        modern = [_modern_session(argv, repo.root, env) for _ in range(runs)]
        sessions = [_one_session(argv, repo.root, env) for _ in range(runs)]
        python_ms = _python_ms(runs)

    def median_ms(values: list[float]) -> float:
        return round(statistics.median(values) * 1000, 1)

    initialize_ms = median_ms([s[0] for s in sessions])
    discover_ms = median_ms([m[0] for m in modern])
    return {
        "runs": runs,
        "discover_ms": discover_ms,
        "modern_tools_list_ms": median_ms([m[1] for m in modern]),
        "initialize_ms": initialize_ms,
        "tools_list_ms": median_ms([s[1] for s in sessions]),
        "first_call_ms": median_ms([s[2] for s in sessions]),
        "exit_after_eof_ms": median_ms([s[3] for s in sessions]),
        "python_ms": round(python_ms, 1),
        "discover_ratio": round(discover_ms / python_ms, 2),
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
