"""The MCP start-up benchmark runs end to end and reports what it measured."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import PROJECT_ROOT


def test_mcp_startup_bench_quick_mode(bin_dir: object) -> None:
    script = PROJECT_ROOT / "tests" / "perf" / "bench_mcp_startup.py"
    result = subprocess.run(
        [sys.executable, str(script), "--quick"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert set(figures) == {
        "runs",
        "initialize_ms",
        "tools_list_ms",
        "exit_after_eof_ms",
        "python_ms",
        "initialize_ratio",
    }
    assert figures["runs"] == 3
    assert 0 < figures["initialize_ms"] <= figures["tools_list_ms"]
    assert figures["python_ms"] > 0
    assert abs(figures["initialize_ratio"] - figures["initialize_ms"] / figures["python_ms"]) < 0.1
