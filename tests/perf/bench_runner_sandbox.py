"""Benchmark of one runner spawn with and without the OS sandbox.

Starts a trivial command runner (reads stdin, prints one line) repeatedly through
`process.spawn`: the baseline with `GIT_MEMORY_RUNNER_SANDBOX=off` (environment isolation
only), and inside the sandbox (`unshare`, the sandbox init, the allow-listed root and the
attempt watch). The two take turns round by round, so a machine that slows down or speeds up
during the run moves both figures alike. Prints one JSON line with the median milliseconds per
spawn of each and their ratio. `--quick` runs 3 rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def _medians_ms(
    runs: int, spawn_once: Callable[[dict[str, str]], None], envs: dict[str, dict[str, str]]
) -> dict[str, float]:
    """Median ms per spawn under each environment, the environments taking turns."""
    samples: dict[str, list[float]] = {name: [] for name in envs}
    for _ in range(runs):
        for name, env in envs.items():
            started = time.perf_counter()
            spawn_once(env)
            samples[name].append((time.perf_counter() - started) * 1000)
    return {name: statistics.median(values) for name, values in samples.items()}


def main() -> None:
    """Measure and print one JSON line."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    runs = 3 if parser.parse_args().quick else 20
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from git_memory.runners.binary import identify
    from git_memory.runners.process import spawn
    from git_memory.runners.profiles import RunnerOptions, resolve_profile
    from git_memory.runners.sandbox import status

    work = Path(tempfile.mkdtemp(prefix="bench-sandbox-"))
    work.chmod(0o755)  # run as root, the runner is an id of its own: it must read its program
    try:
        script = work / "runner.py"
        script.write_text(f"#!{sys.executable}\nimport sys\nsys.stdin.read()\nprint('ok')\n")
        script.chmod(0o755)
        profile = resolve_profile(RunnerOptions("command", command=str(script)), environ={})
        binary = identify(str(script))

        def spawn_once(env: dict[str, str]) -> None:
            result = spawn(profile, binary, b"task", host_env=env)
            assert result.returncode == 0, result.stderr

        sandboxed = status().available
        spawn_once(dict(os.environ))  # the first spawn probes whether the sandbox works
        envs = {"off": {**os.environ, "GIT_MEMORY_RUNNER_SANDBOX": "off"}, "on": dict(os.environ)}
        medians = _medians_ms(runs, spawn_once, envs)
        baseline, boxed = medians["off"], medians["on"]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(
        json.dumps(
            {
                "runs": runs,
                "sandbox": sandboxed,
                "environment_only_ms": round(baseline, 1),
                "os_sandbox_ms": round(boxed, 1),
                "ratio": round(boxed / baseline, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
