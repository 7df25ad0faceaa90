"""The whole agent-native flow through the real `git memory mcp`, as an agent would drive it.

recall → stage drafts → stage adjudication → review → prepare → promote (approved by the
human through elicitation) → assemble, on a repository with the bundled sample sessions.
Git is only read: HEAD, every ref and the index are unchanged at the end.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, types

from tests.extract.conftest import SINCE, UNTIL, build_sample_repo
from tests.extract.flow import decisions, sample_batch
from tests.mcp.harness import (
    ALL_TOOLS,
    answer,
    check_like_typescript_sdk,
    server_parameters,
    stdio,
    structured,
)
from tests.review_helpers import prepare_document


async def _ok(client: Client, tool: str, arguments: dict[str, Any]) -> Any:
    result = await client.call_tool(tool, arguments)
    document = structured(result)
    assert not result.is_error, (tool, document)
    listed = {item.name: item for item in (await client.list_tools()).tools}
    check_like_typescript_sdk(listed[tool], result)
    return document


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_whole_flow_over_mcp(mode: str, tmp_path: Path, hermetic_env: dict[str, Path]) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    before = sample.repo.snapshot()
    asked: list[types.ElicitRequestParams] = []
    params = server_parameters(sample.root, ALL_TOOLS)
    recall_request = {
        "request": {
            "window": {"after": SINCE, "before": UNTIL},
            "filters": {"providers": ["claude"]},
        }
    }

    async def scenario() -> dict[str, Any]:
        elicit = answer("approve", asked)
        async with stdio(params, tmp_path / "err.log", mode=mode, elicit=elicit) as client:
            recalled = await _ok(client, "memory_recall", recall_request)
            (task,) = recalled["tasks"]
            # The recall carries, once, the schema of the document that answers each task
            # kind; the tasks point to it.
            contracts = recalled["contracts"]
            assert task["contract"]["sharedIn"] == "contracts.extraction"
            assert contracts["extraction"]["documentSchema"]["properties"]["candidates"]
            staged = await _ok(client, "memory_stage_drafts", sample_batch(task))
            assert staged["status"] == "adjudication-required"
            adjudication = staged["adjudicationTask"]
            assert adjudication["contract"]["sharedIn"] == "contracts.adjudication"
            assert "documentSchema" not in adjudication["contract"]
            assert contracts["adjudication"]["documentSchema"]["properties"]["adjudications"]
            stored = await _ok(client, "memory_stage_adjudication", decisions(adjudication))
            assert stored["status"] == "staged"
            review = await _ok(client, "memory_review", {})
            assert len(review["items"]) == 2
            plan = await _ok(client, "memory_prepare", prepare_document(review["items"]))
            promoted = await _ok(client, "memory_promote", {"plan": plan["planId"]})
            assembled = await _ok(client, "memory_assemble", {"provider": "claude"})
            status = await _ok(client, "memory_status", {})
            return {"plan": plan, "promoted": promoted, "assembled": assembled, "status": status}

    outcome = anyio.run(scenario)
    promoted = outcome["promoted"]
    assert promoted["approvedVia"] == "elicitation"
    assert len(asked) == 1
    assert outcome["plan"]["planId"] in asked[0].message
    files = promoted["files"]
    assert len(files) == 2
    for path in files:
        text = (sample.root / path).read_text()
        assert text.startswith("---")
    # Entries reach CLAUDE.md through doctrine (synthesize); the generated block is there.
    assembled = outcome["assembled"]
    assert assembled["target"]["path"] == "CLAUDE.md"
    assert assembled["changed"] is True
    assert "<!-- BEGIN GIT MEMORY" in (sample.root / "CLAUDE.md").read_text()
    assert outcome["status"]["counts"]["memory"]["approved"]["entries"] == 2
    assert sample.repo.snapshot() == before
