"""The short-id benchmark still runs (quick mode), so it cannot rot."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import PROJECT_ROOT


def test_bench_short_ids_quick() -> None:
    script = PROJECT_ROOT / "tests" / "perf" / "bench_short_ids.py"
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
    assert figures["bench"] == "short_ids"
    assert (figures["namespace"], figures["shown"]) == (2000, 50)
    assert figures["longest_form"] == len("extract-") + 7 + len("-c1"), "no clash: 7 digits"
    assert figures["within_ms"] > 0
