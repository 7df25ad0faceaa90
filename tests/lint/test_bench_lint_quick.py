"""The lint benchmark runs in --quick mode and prints its one JSON line."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import PROJECT_ROOT


def test_bench_lint_quick() -> None:
    result = subprocess.run(
        [sys.executable, str(PROJECT_ROOT / "tests" / "perf" / "bench_lint.py"), "--quick"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    [line] = result.stdout.splitlines()
    doc = json.loads(line)
    assert doc["bench"] == "lint"
    assert doc["recall"] == 1.0
    assert doc["planted_secrets"] > 10
    assert doc["speedup_vs_detect_secrets"] > 1
    assert doc["gitleaks_probes"] == 242
    assert 0 <= doc["gitleaks_fp_rate"] < 0.2
    assert len(doc["gitleaks_blocked"]) == round(doc["gitleaks_fp_rate"] * 242)
