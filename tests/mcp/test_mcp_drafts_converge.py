"""Drafts of two recalls staged and adjudicated in every order all land, through MCP.

Each recall hands out one task (the Claude and the Codex sample session). Both batches draft
the same test command, so deciding one batch moves the other's pool: its adjudication task
goes stale, and the stale answer comes back with the task reissued against the current pool
(or the next recall hands it out). Whatever the order, every draft ends quarantined or
discarded, and none is left a draft.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from tests.extract.conftest import SINCE, UNTIL, build_sample_repo
from tests.extract.flow import candidate, decisions, draft_batch, sample_batch
from tests.mcp.harness import server_parameters, stdio, structured

STEPS = ("stage A", "stage B", "decide A", "decide B")
# Every order in which each batch is staged before it is decided.
ORDERS = [
    order
    for order in itertools.permutations(STEPS)
    if order.index("stage A") < order.index("decide A")
    and order.index("stage B") < order.index("decide B")
]


def _recall(provider: str) -> dict[str, Any]:
    window = {"after": SINCE, "before": UNTIL}
    return {"request": {"window": window, "filters": {"providers": [provider]}}}


def codex_batch(task: dict[str, Any]) -> dict[str, Any]:
    turn = task["chunk"]["turnEvidence"][0]["evidenceId"]
    return draft_batch(
        task,
        [
            candidate(
                "Run the test suite with `uv run pytest -q` before committing.",
                [("The test suite runs with `uv run pytest -q`.", [turn])],
            )
        ],
    )


async def _call(client: Client, tool: str, arguments: dict[str, Any]) -> tuple[bool, Any]:
    result = await client.call_tool(tool, arguments)
    return not result.is_error, structured(result)


# Every order with the reissued task taken from the refusal; one interleaved order with it
# taken from the next recall instead.
CASES = [(order, "stale answer") for order in ORDERS] + [
    (("stage A", "stage B", "decide B", "decide A"), "recall")
]


@pytest.mark.parametrize(
    ("order", "via"), CASES, ids=[f"{', '.join(order)} ({via})" for order, via in CASES]
)
def test_every_order_lands_every_draft(
    order: tuple[str, ...], via: str, tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    params = server_parameters(sample.root)

    async def scenario() -> dict[str, Any]:
        async with stdio(params, tmp_path / "err.log") as client:
            ok, first = await _call(client, "memory_recall", _recall("claude"))
            assert ok, first
            ok, second = await _call(client, "memory_recall", _recall("codex"))
            assert ok, second
            (task_a,), (task_b,) = first["tasks"], second["tasks"]
            batches = {"A": sample_batch(task_a), "B": codex_batch(task_b)}
            adjudications: dict[str, dict[str, Any]] = {}
            reissued = 0
            for step in order:
                verb, name = step.split()
                if verb == "stage":
                    ok, staged = await _call(client, "memory_stage_drafts", batches[name])
                    assert ok, staged
                    adjudications[name] = staged["adjudicationTask"]
                    continue
                ok, decided = await _call(
                    client, "memory_stage_adjudication", decisions(adjudications[name])
                )
                if not ok:
                    assert decided["code"] == "GM_TASK_STALE", decided
                    reissued += 1
                    fresh = decided["details"]["adjudicationTask"]
                    if via == "recall":
                        ok, again = await _call(client, "memory_recall", _recall("claude"))
                        assert ok, again
                        (listed,) = again["adjudicationTasks"]
                        assert listed["taskId"] == decided["details"]["reissuedTaskId"]
                        fresh = listed
                    assert fresh["taskId"] != adjudications[name]["taskId"]
                    ok, decided = await _call(client, "memory_stage_adjudication", decisions(fresh))
                assert ok, decided
                assert {c["status"] for c in decided["candidates"]} == {"quarantined"}
            ok, status = await _call(client, "memory_status", {})
            assert ok, status
            ok, review = await _call(client, "memory_review", {})
            assert ok, review
            ok, last = await _call(client, "memory_recall", _recall("claude"))
            assert ok, last
            return {"status": status, "review": review, "last": last, "reissued": reissued}

    outcome = anyio.run(scenario)
    candidates = outcome["status"]["counts"]["memory"]["candidates"]
    assert candidates["draft"] == 0, candidates
    assert candidates["quarantined"] + candidates["discarded"] == 3
    assert len(outcome["review"]["items"]) == 3
    assert "adjudicationTasks" not in outcome["last"]
    # Deciding one batch before the other's task is answered moves that task's pool.
    interleaved = order.index("decide A") > order.index("stage B") and order.index(
        "decide B"
    ) > order.index("stage A")
    assert outcome["reissued"] == (1 if interleaved else 0)
