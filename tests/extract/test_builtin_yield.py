"""The yield benchmark's core on part of its fixture: what a team lead keeps, and no noise."""

from __future__ import annotations

from pathlib import Path

from tests.perf.bench_extract_yield import measure


def test_builtin_extraction_finds_what_a_team_keeps(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    result = measure(tmp_path, ["python-uv", "node-pnpm"])
    assert result["recall"] >= 0.9, result["missed"]
    assert result["precision"] >= 0.9, result["imprecise"]
    assert result["noise"] == 0, result["noise_items"]
    assert result["candidates"] >= 15
