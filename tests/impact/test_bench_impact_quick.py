"""The impact benchmark still runs (quick mode), so it cannot rot."""

from __future__ import annotations

from tests.conftest import run_quick_bench


def test_bench_impact_quick() -> None:
    figures = run_quick_bench("bench_impact.py")
    assert figures["bench"] == "impact"
    assert (figures["sessions"], figures["entries"]) == (400, 40)
    assert sum(figures["verdicts"].values()) == 40
    assert figures["rows"] == 400 * 8  # a prompt and three calls with their results each
    assert figures["impact_s"] > 0
    assert figures["read_rows_s"] > 0
