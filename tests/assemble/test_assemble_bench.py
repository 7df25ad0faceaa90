"""The assemble benchmark still runs (quick mode), so it cannot rot."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import PROJECT_ROOT


def test_bench_assemble_quick() -> None:
    script = PROJECT_ROOT / "tests" / "perf" / "bench_assemble.py"
    env_path = {"PYTHONPATH": str(PROJECT_ROOT)}
    result = subprocess.run(
        [sys.executable, str(script), "--quick"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, **env_path},
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["bench"] == "assemble"
    assert figures["entries"] == 200
    # Half the entries are scoped: the root block holds the other half.
    assert figures["shown"] + figures["via_scenes"] + figures["left_out"] == 100
    assert figures["scoped_files"] == 20
    assert figures["scoped_shown"] == 100
    assert figures["bytes_per_kept_entry"] == round(
        figures["block_bytes"] / (figures["shown"] + figures["via_scenes"]), 1
    )
    assert figures["block_bytes"] <= figures["budget"]
    assert figures["warm_changed"] is True
    assert figures["noop_ms"] > 0
    assert figures["one_edit_ms"] == figures["warm_ms"]
    assert figures["first_ms"] == figures["assemble_ms"]
    assert figures["one_edit_over_first"] == pytest.approx(
        figures["warm_ms"] / figures["assemble_ms"], abs=1e-3
    )
