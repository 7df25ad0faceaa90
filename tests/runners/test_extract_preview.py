"""`memory_extract_preview`: pending plans only — nothing sent, no transcript returned."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from git_memory.ops.base import OpContext, load_operation
from git_memory.ops.extract import ExtractPreviewRequest
from tests.conftest import run_cli
from tests.extract.conftest import SINCE, UNTIL, SampleRepo, build_sample_repo


@pytest.fixture
def sample_repo(tmp_path: Path, hermetic_env: dict[str, Path]) -> SampleRepo:
    """A repository whose two sample sessions are indexed and sealed."""
    return build_sample_repo(tmp_path, hermetic_env)


def test_preview_stores_pending_plans_and_sends_nothing(
    sample_repo: SampleRepo, fake_runner: Callable[[str], Path]
) -> None:
    runner = fake_runner("extraction")
    request = ExtractPreviewRequest.model_validate(
        {
            "runner": "command",
            "request": {
                "format": "git-memory-extraction-request@v1",
                "window": {"after": SINCE, "before": UNTIL},
            },
            "limit": 8,
        }
    )
    sample_repo.repo.git("config", "memory.runner.command", str(runner))
    ctx = OpContext(repository=sample_repo.root, front_end="mcp")
    response = load_operation("extract").handler(ctx, request)  # as the MCP adapter calls it
    assert len(response.plans) == 2
    assert response.manifest is not None
    assert response.manifest["totalBytes"] == sum(p["bytesToSend"] for p in response.plans)
    assert {p["authorization"] for p in response.plans} == {"pending"}
    # each plan says what is in its bytes: the transcript slice and the prompt, by digest
    for plan in response.plans:
        kinds = [item["sourceKind"] for item in plan["inputCoverage"]]
        assert kinds == ["transcript", "prompt"]
        assert plan["inputCoverage"][1]["opaqueSourceId"] == "memory-prompts@2"
        assert sum(i["bytes"] for i in plan["inputCoverage"]) < plan["bytesToSend"]
    document = json.dumps(response.to_json())
    assert "uv run pytest" not in document, "a preview never carries transcript text"
    assert "--approve-manifest" in response.next
    assert not Path(str(runner) + ".spawned").exists(), "nothing was started"
    # the digest the preview named is what the CLI approval takes
    digest = response.manifest["manifestDigest"]
    refused = run_cli(
        [
            "extract",
            "--runner",
            "command",
            "--since",
            SINCE,
            "--until",
            UNTIL,
            "--limit",
            "8",
            "--approve-manifest",
            "0" * 64,
            "--format",
            "json",
        ],
        cwd=sample_repo.root,
    )
    assert refused.exit_code == 1
    assert digest != "0" * 64
