"""The start-up benchmark runs end to end and reports what it measured."""

from __future__ import annotations

from tests.conftest import run_quick_bench


def test_startup_bench_quick_mode(bin_dir: object) -> None:
    figures = run_quick_bench("bench_cli_startup.py", timeout=300)
    assert set(figures) == {"runs", "help_ms", "hook_ms", "python_ms", "help_ratio", "hook_ratio"}
    assert figures["runs"] == 3
    assert figures["help_ms"] > 0
    assert figures["python_ms"] > 0
    # the printed milliseconds are rounded; the ratio was computed before rounding
    assert abs(figures["hook_ratio"] - figures["hook_ms"] / figures["python_ms"]) < 0.05
