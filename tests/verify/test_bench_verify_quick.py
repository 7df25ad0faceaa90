"""The verify benchmark still runs (quick mode), so it cannot rot."""

from __future__ import annotations

from tests.conftest import run_quick_bench


def test_bench_verify_quick() -> None:
    figures = run_quick_bench("bench_verify.py")
    assert figures["bench"] == "verify"
    assert figures["states"] == {"fresh": 200, "stale": 0, "unverifiable": 0, "total": 200}
    assert figures["manifest_reads"] == ["Makefile", "package.json"]  # once each
    assert figures["verify_ms"] > 0
