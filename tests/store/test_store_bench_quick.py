"""The similar-entry benchmark runs in its tiny `--quick` mode, so it cannot rot."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import PROJECT_ROOT


def test_bench_similar_quick() -> None:
    done = subprocess.run(
        [sys.executable, str(PROJECT_ROOT / "tests/perf/bench_similar.py"), "--quick"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert result["pool"] == {"approved": 300, "candidates": 300}
    for key in ("p50_ms", "p95_ms", "fts_floor_p95_ms", "sync_cold_s", "sync_noop_s"):
        assert result[key] > 0, key
    assert result["ratio_to_floor"] == pytest.approx(
        result["p95_ms"] / result["fts_floor_p95_ms"], abs=0.01
    )
