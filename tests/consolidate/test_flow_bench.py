"""The consolidation benchmark still runs (quick mode), so it cannot rot."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import PROJECT_ROOT


def test_bench_consolidate_quick() -> None:
    script = PROJECT_ROOT / "tests" / "perf" / "bench_consolidate.py"
    result = subprocess.run(
        [sys.executable, str(script), "--quick"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["bench"] == "consolidate"
    assert figures["entries"] == 100
    assert figures["first_synthesize_ms"] > figures["baseline_read_ms"] > 0
    assert figures["review_prepare_promote_ms"] > 0
