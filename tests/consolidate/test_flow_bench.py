"""The consolidation benchmark still runs (quick mode), so it cannot rot."""

from __future__ import annotations

from tests.conftest import run_quick_bench


def test_bench_consolidate_quick() -> None:
    figures = run_quick_bench("bench_consolidate.py", timeout=60)
    assert figures["bench"] == "consolidate"
    assert figures["entries"] == 100
    assert figures["first_synthesize_ms"] > 0
    assert figures["baseline_read_ms"] > 0
    assert figures["review_prepare_promote_ms"] > 0
