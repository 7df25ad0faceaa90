"""The sync benchmark runs in its quick mode, so it cannot rot."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import PROJECT_ROOT


def test_bench_sessions_sync_quick() -> None:
    script = PROJECT_ROOT / "tests" / "perf" / "bench_sessions_sync.py"
    result = subprocess.run(
        [sys.executable, str(script), "--quick"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    (line,) = result.stdout.splitlines()
    measured = json.loads(line)
    assert measured["mib"] >= 2
    for key in ("mib_per_s", "ceiling_mib_per_s", "ratio_to_ceiling", "noop_ratio"):
        assert measured[key] > 0
        assert measured["mixed_" + key] > 0  # the corpus of all seven agents
    assert measured["mixed_mib"] >= 2
    assert measured["append_visible_ms"] > 0
