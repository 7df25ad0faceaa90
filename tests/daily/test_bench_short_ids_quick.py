"""The short-id benchmark still runs (quick mode), so it cannot rot."""

from __future__ import annotations

from tests.conftest import run_quick_bench


def test_bench_short_ids_quick() -> None:
    figures = run_quick_bench("bench_short_ids.py")
    assert figures["bench"] == "short_ids"
    assert (figures["namespace"], figures["shown"]) == (2000, 50)
    assert figures["longest_form"] == len("extract-") + 7 + len("-c1"), "no clash: 7 digits"
    assert figures["within_ms"] > 0
