"""The start-up benchmark runs end to end and reports what it measured."""

from __future__ import annotations

import pytest

from tests.conftest import run_quick_bench


def test_startup_bench_quick_mode(bin_dir: object) -> None:
    figures = run_quick_bench("bench_cli_startup.py", timeout=300)
    assert set(figures) == {
        "runs",
        "help_ms",
        "hook_ms",
        "python_ms",
        "help_ratio",
        "hook_ratio",
        "commit_ms",
        "commit_no_verify_ms",
        "hook_noop_overhead_ms",
        "context_ms",
        "context_ratio",
        "status_ms",
        "status_ratio",
    }
    assert figures["runs"] == 3
    assert figures["help_ms"] > 0
    assert figures["python_ms"] > 0
    assert figures["context_ms"] > 0
    assert figures["status_ms"] > 0
    # the printed milliseconds are rounded; the ratios were computed before rounding
    assert figures["hook_ratio"] == pytest.approx(
        figures["hook_ms"] / figures["python_ms"], abs=0.05
    )
    assert figures["context_ratio"] == pytest.approx(
        figures["context_ms"] / figures["python_ms"], abs=0.05
    )
    overhead = figures["commit_ms"] - figures["commit_no_verify_ms"]
    assert figures["hook_noop_overhead_ms"] == pytest.approx(overhead, abs=0.15)
