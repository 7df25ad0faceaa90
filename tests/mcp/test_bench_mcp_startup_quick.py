"""The MCP start-up benchmark runs end to end and reports what it measured."""

from __future__ import annotations

import pytest

from tests.conftest import run_quick_bench


def test_mcp_startup_bench_quick_mode(bin_dir: object) -> None:
    figures = run_quick_bench("bench_mcp_startup.py", timeout=300)
    assert set(figures) == {
        "runs",
        "discover_ms",
        "modern_tools_list_ms",
        "initialize_ms",
        "tools_list_ms",
        "first_call_ms",
        "exit_after_eof_ms",
        "python_ms",
        "discover_ratio",
        "initialize_ratio",
    }
    assert figures["runs"] == 3
    assert figures["initialize_ms"] > 0
    assert figures["tools_list_ms"] > 0
    assert figures["discover_ms"] > 0
    assert figures["modern_tools_list_ms"] > 0
    assert figures["first_call_ms"] > 0
    assert figures["python_ms"] > 0
    assert figures["initialize_ratio"] == pytest.approx(
        figures["initialize_ms"] / figures["python_ms"], abs=0.1
    )
