"""The sync benchmark runs in its quick mode, so it cannot rot."""

from __future__ import annotations

from tests.conftest import run_quick_bench


def test_bench_sessions_sync_quick() -> None:
    measured = run_quick_bench("bench_sessions_sync.py", env={"PATH": "/usr/bin:/bin"})
    assert measured["mib"] >= 2
    for key in ("mib_per_s", "ceiling_mib_per_s", "ratio_to_ceiling", "noop_ratio"):
        assert measured[key] > 0
        assert measured["mixed_" + key] > 0  # the corpus of all seven agents
    assert measured["mixed_mib"] >= 2
    assert measured["append_visible_ms"] > 0
