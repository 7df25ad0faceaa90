"""Freshness where people and agents meet memory: search, memory_search, status, doctor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.mcp.harness import server_parameters, stdio, structured
from tests.repos import Repo
from tests.verify.helpers import STALE, rotting_project


@pytest.fixture
def rotted(repo: Repo) -> Repo:
    rotting_project(repo)
    return repo


def test_search_marks_each_result_fresh_or_stale(rotted: Repo, gm: Any) -> None:
    result = gm(["search", "deploy", "--format", "json"], cwd=rotted.root)
    assert result.exit_code == 0, result.stderr
    marks = {r["id"]: r["freshness"] for r in result.json()["results"]}
    assert marks == {"deploy-with-make": "stale", "deploy-script": "fresh"}
    text = gm(["search", "deploy"], cwd=rotted.root).stdout
    assert "deploy-with-make  [work_method] (stale: see `git memory verify`)" in text
    assert "deploy-script  [work_method]  Deploy" in text


def test_memory_search_marks_freshness(rotted: Repo, tmp_path: Path) -> None:
    params = server_parameters(rotted.root)

    async def scenario() -> Any:
        async with stdio(params, tmp_path / "err.log") as client:
            return structured(await client.call_tool("memory_search", {"query": "storybook"}))

    found = anyio.run(scenario)
    assert [(r["id"], r["freshness"]) for r in found["results"]] == [("storybook", "stale")]


def test_status_counts_stale_memory(rotted: Repo, gm: Any) -> None:
    status = gm(["status", "--format", "json"], cwd=rotted.root).json()
    assert status["counts"]["freshness"] == {
        "fresh": 4, "stale": len(STALE), "unverifiable": 1, "total": 9
    }  # fmt: skip
    text = gm(["status"], cwd=rotted.root).stdout
    assert "  4 approved memories are stale, left out of assembled context: git memory verify" in (
        text
    )


def test_doctor_mentions_stale_memory(rotted: Repo, gm: Any) -> None:
    report = gm(["doctor", "--format", "json"], cwd=rotted.root).json()
    (check,) = [c for c in report["checks"] if c["name"] == "memory freshness"]
    assert check["status"] == "warn"
    assert check["detail"].startswith("4 of 9 approved memories are stale")
    assert "git memory verify" in check["hint"]


def test_doctor_is_quiet_about_fresh_memory(repo: Repo, gm: Any) -> None:
    report = gm(["doctor", "--format", "json"], cwd=repo.root).json()
    (check,) = [c for c in report["checks"] if c["name"] == "memory freshness"]
    assert check["status"] == "ok"


def test_status_reuses_the_recorded_counts(
    rotted: Repo, gm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = gm(["status", "--format", "json"], cwd=rotted.root).json()["counts"]["freshness"]
    assert gm(["search", "deploy"], cwd=rotted.root).exit_code == 0  # the projection exists now
    again = gm(["status", "--format", "json"], cwd=rotted.root).json()["counts"]["freshness"]
    from git_memory.verify import check

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("checked again although nothing changed")

    monkeypatch.setattr(check, "verify_memory", refuse)
    monkeypatch.setattr(check, "check_file", refuse)
    recorded = gm(["status", "--format", "json"], cwd=rotted.root).json()["counts"]["freshness"]
    assert first == again == recorded
    assert recorded["stale"] == len(STALE)
