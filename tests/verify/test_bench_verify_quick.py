"""The verify benchmark still runs (quick mode), so it cannot rot."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import PROJECT_ROOT


def test_bench_verify_quick() -> None:
    script = PROJECT_ROOT / "tests" / "perf" / "bench_verify.py"
    result = subprocess.run(
        [sys.executable, str(script), "--quick"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["bench"] == "verify"
    assert figures["states"] == {"fresh": 200, "stale": 0, "unverifiable": 0, "total": 200}
    assert figures["manifest_reads"] == ["Makefile", "package.json"]  # once each
    assert figures["verify_ms"] > 0
