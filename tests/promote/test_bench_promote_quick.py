"""The promotion benchmark runs (quick mode) and reports what it measured."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import PROJECT_ROOT


def test_bench_promote_quick() -> None:
    result = subprocess.run(
        [sys.executable, str(PROJECT_ROOT / "tests/perf/bench_promote.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=PROJECT_ROOT,
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["bench"] == "promote"
    assert figures["files"] == 40
    assert figures["plans"] == 1
    assert figures["apply_s"] > 0
    assert figures["raw_s"] > 0
    assert figures["ratio_to_raw_writes"] == pytest.approx(
        figures["apply_s"] / figures["raw_s"], rel=0.05
    )
