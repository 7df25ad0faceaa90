"""Every benchmark runs as a plain file (`python tests/perf/bench_X.py`), from anywhere.

A benchmark that imports from `tests.` must put the checkout on the module path itself: run
as a file, only its own directory is there. Each file's top level runs in a fresh process
started elsewhere without PYTHONPATH, where git_memory is importable as an installed package
is (an editable install would put the whole checkout, `tests` included, on the path), then
every `tests.` module it names is imported there.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

PERF = Path(__file__).resolve().parents[1] / "perf"
BENCHMARKS = sorted(PERF.glob("bench_*.py"))


def named_test_modules(path: Path) -> list[str]:
    """The `tests.` modules a file imports, wherever the import stands."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tests."):
            names.append(node.module or "")
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names if alias.name.startswith("tests.")]
    return names


@pytest.mark.parametrize("path", BENCHMARKS, ids=[path.name for path in BENCHMARKS])
def test_benchmark_runs_as_a_plain_file(path: Path, tmp_path: Path) -> None:
    installed = tmp_path / "site"
    installed.mkdir()
    (installed / "git_memory").symlink_to(PERF.parents[1] / "git_memory")
    checkout = str(PERF.parents[1])
    program = (
        "import importlib, os, runpy, sys\n"
        f"sys.path[:] = [p for p in sys.path if os.path.realpath(p or '.') != {checkout!r}]\n"
        f"sys.path.insert(0, {str(installed)!r})\n"
        f"runpy.run_path({str(path)!r}, run_name='benchmark')\n"
        f"for name in {named_test_modules(path)!r}:\n"
        "    importlib.import_module(name)\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    result = subprocess.run(
        [sys.executable, "-c", program],
        cwd=tempfile.gettempdir(),
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-2000:]


def test_the_check_sees_imports_inside_functions() -> None:
    assert "tests.perf.mixed_corpus" in named_test_modules(PERF / "bench_sessions_sync.py")
