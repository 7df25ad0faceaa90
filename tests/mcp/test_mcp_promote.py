"""prepare → promote through the real `git memory mcp`, approved by elicitation or by digest.

Quarantined candidates are seeded through the store API (tests/promote/helpers.py); the plan is
made by `memory_prepare` and applied by `memory_promote` over the SDK's stdio client.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import types

from tests.mcp.harness import Elicit, answer, server_parameters, stdio, structured
from tests.promote.helpers import (
    authorizations,
    candidate_state,
    prepare_request,
    seed_candidate,
)
from tests.repos import Repo

MODES = ["legacy", "2026-07-28"]
TARGET = ".memory/entries/run-tests-with-uv-run-pytest.md"


def _authorizations(root: Path) -> list[str]:
    return [via for via, _detail in authorizations(root)]


def _flow(
    repo: Repo, tmp_path: Path, *, mode: str, elicit: Elicit | None, approve: bool = False
) -> tuple[dict[str, Any], types.CallToolResult]:
    item = seed_candidate(repo.root, "cand-uv", "Run tests with uv run pytest")
    params = server_parameters(repo.root)

    async def scenario() -> tuple[dict[str, Any], types.CallToolResult]:
        async with stdio(params, tmp_path / "err.log", mode=mode, elicit=elicit) as client:
            prepared = await client.call_tool("memory_prepare", prepare_request(item))
            plan = structured(prepared)
            assert not prepared.is_error, plan
            arguments = {"plan": plan["planId"]}
            if approve:
                arguments["approve"] = plan["planDigest"]
            return plan, await client.call_tool("memory_promote", arguments)

    return anyio.run(scenario)


@pytest.mark.parametrize("mode", MODES)
def test_promote_asks_the_human_and_records_elicitation(
    mode: str, repo: Repo, tmp_path: Path
) -> None:
    (repo.root / ".memory" / "entries").mkdir(parents=True)
    before = repo.snapshot()
    seen: list[types.ElicitRequestParams] = []
    plan, promoted = _flow(repo, tmp_path, mode=mode, elicit=answer("approve", seen))
    result = structured(promoted)
    assert not promoted.is_error, result
    assert result["approvedVia"] == "elicitation"
    assert result["files"] == [TARGET]
    assert (repo.root / TARGET).is_file()
    assert _authorizations(repo.root) == ["elicitation"]
    assert len(seen) == 1
    assert isinstance(seen[0], types.ElicitRequestFormParams)
    assert plan["planId"] in seen[0].message
    assert plan["diff"].strip() in seen[0].message  # the human sees the exact diff
    assert candidate_state(repo.root, "cand-uv")[0] == "promoted"
    assert repo.snapshot() == before  # git is only read


@pytest.mark.parametrize("mode", MODES)
def test_declined_promotion_writes_nothing(mode: str, repo: Repo, tmp_path: Path) -> None:
    (repo.root / ".memory" / "entries").mkdir(parents=True)
    _plan, promoted = _flow(repo, tmp_path, mode=mode, elicit=answer("reject", []))
    assert promoted.is_error
    # Rejecting in the form is the human's no: the plan is void (tests/mcp/test_mcp_human_no.py).
    assert structured(promoted)["code"] == "GM_PLAN_DECLINED"
    assert not (repo.root / TARGET).exists()
    assert _authorizations(repo.root) == []
    assert candidate_state(repo.root, "cand-uv")[0] == "quarantined"


def test_without_elicitation_promote_needs_the_agent_digest(repo: Repo, tmp_path: Path) -> None:
    (repo.root / ".memory" / "entries").mkdir(parents=True)
    _plan, refused = _flow(repo, tmp_path, mode="legacy", elicit=None)
    assert structured(refused)["code"] == "GM_APPROVAL_REQUIRED"
    assert not (repo.root / TARGET).exists()


def test_agent_digest_is_recorded_as_agent(repo: Repo, tmp_path: Path) -> None:
    (repo.root / ".memory" / "entries").mkdir(parents=True)
    _plan, promoted = _flow(repo, tmp_path, mode="legacy", elicit=None, approve=True)
    assert structured(promoted)["approvedVia"] == "agent"
    assert (repo.root / TARGET).is_file()
    assert _authorizations(repo.root) == ["agent"]
