"""The start-up benchmark runs end to end and reports what it measured."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import PROJECT_ROOT


def test_startup_bench_quick_mode(bin_dir: object) -> None:
    script = PROJECT_ROOT / "tests" / "perf" / "bench_cli_startup.py"
    result = subprocess.run(
        [sys.executable, str(script), "--quick"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert set(figures) == {"runs", "help_ms", "hook_ms", "python_ms", "help_ratio", "hook_ratio"}
    assert figures["runs"] == 3
    assert figures["help_ms"] > 0
    assert figures["python_ms"] > 0
    # the printed milliseconds are rounded; the ratio was computed before rounding
    assert abs(figures["hook_ratio"] - figures["hook_ms"] / figures["python_ms"]) < 0.05
