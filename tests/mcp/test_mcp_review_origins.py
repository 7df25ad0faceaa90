"""`memory_review` over the real `git memory mcp` shows where the words behind each statement
came from (issue 26): the host checks every quote an agent stages against the part of the
turn it names, and a statement only the agent's own words back is marked as such."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from git_memory.contracts.review import ReviewItem, ReviewStatement
from git_memory.extract.review_flow import bulk_confirmable, support_warning
from tests.extract.conftest import SINCE, UNTIL, build_sample_repo
from tests.extract.flow import candidate, decisions, draft_batch
from tests.mcp.harness import check_like_typescript_sdk, server_parameters, stdio, structured


async def _ok(client: Client, tool: str, arguments: dict[str, Any]) -> Any:
    result = await client.call_tool(tool, arguments)
    document = structured(result)
    assert not result.is_error, (tool, document)
    listed = {item.name: item for item in (await client.list_tools()).tools}
    check_like_typescript_sdk(listed[tool], result)
    return document


def _quoted(draft: dict[str, Any], evidence: str, *quotes: tuple[str, str]) -> dict[str, Any]:
    (statement,) = draft["statements"]
    statement["quotes"] = [{"evidenceId": evidence, "part": p, "text": t} for p, t in quotes]
    return draft


def test_review_over_mcp_shows_the_origin_of_every_quote(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    window = {"window": {"after": SINCE, "before": UNTIL}, "filters": {"providers": ["claude"]}}

    async def scenario() -> dict[str, Any]:
        async with stdio(server_parameters(sample.root), tmp_path / "err.log") as client:
            recalled = await _ok(client, "memory_recall", {"request": window})
            task = recalled["tasks"][0]
            turn0 = task["chunk"]["turnEvidence"][0]["evidenceId"]
            ran = _quoted(
                candidate("Run the tests with `uv run pytest -q`.", [("Tests pass.", [turn0])]),
                turn0,
                ("tool", "uv run pytest -q"),
                ("tool", "12 passed in 0.41s"),
                # claimed as the person's words, but the person never wrote them: dropped
                ("user", "12 passed in 0.41s"),
            )
            said = _quoted(
                candidate("The suite is fast.", [("The suite runs in a second.", [turn0])]),
                turn0,
                ("assistant", "Running the tests with uv."),
            )
            asked = _quoted(
                candidate("Report failing tests.", [("The user wants failures.", [turn0])]),
                turn0,
                ("user", "Run the test suite and tell me if anything fails."),
            )
            staged = await _ok(client, "memory_stage_drafts", draft_batch(task, [ran, said, asked]))
            await _ok(client, "memory_stage_adjudication", decisions(staged["adjudicationTask"]))
            review: dict[str, Any] = await _ok(client, "memory_review", {})
            return review

    review = anyio.run(scenario)
    by_content = {item["content"]: item for item in review["items"]}
    (ran,) = by_content["Run the tests with `uv run pytest -q`."]["statements"]
    assert ran["origins"] == ["tool"]
    quotes = [q for e in ran["evidence"] for q in e["quotes"]]
    assert [(q["origin"], q["text"]) for q in quotes] == [
        ("tool", "uv run pytest -q"),
        ("tool", "12 passed in 0.41s"),
    ]
    assert all(q["at"].endswith("T09:00:00.000Z") for q in quotes)
    (said,) = by_content["The suite is fast."]["statements"]
    assert said["origins"] == ["agent"]
    warning = support_warning(ReviewStatement.model_validate(said))
    assert warning == "no person stated this: only written by the agent"
    (asked,) = by_content["Report failing tests."]["statements"]
    assert asked["origins"] == ["person"]
    assert support_warning(ReviewStatement.model_validate(asked)) == ""
    items = [ReviewItem.model_validate(item) for item in review["items"]]
    assert not any(bulk_confirmable(item) for item in items), "none is a typed fact"
