"""An agent memory that rewrites approved memory is reviewed with both texts side by side:
the entry as approved now and the agent's new text, in the JSON review, the text review, the
terminal review and MCP `memory_review`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio

from tests.agent_memory.conftest import BUILDERS, Project, review_and_promote
from tests.conftest import run_cli
from tests.daily.terminal import Terminal
from tests.mcp.harness import server_parameters, stdio, structured

CLAIM = r"\(c\)onfirm, \(d\)iscard, \(s\)kip, \(q\)uit(, or confirm for one \(p\)ath only)?\?"
APPROVED = "The staging database is reset every night at 02:00 UTC."
PROPOSED = "The staging database is reset every night at 03:00 UTC."


def _edited_after_promotion(project: Project) -> dict[str, Any]:
    memory = BUILDERS["gemini-memories"][0](project)
    project.gm("harvest")
    review_and_promote(project)
    memory.write_text(memory.read_text().replace("02:00 UTC", "03:00 UTC"), encoding="utf-8")
    _, harvested = project.gm("harvest")
    (offer,) = harvested["offered"]
    assert offer["action"] == "update"
    return offer  # type: ignore[no-any-return]


def test_the_review_document_carries_the_approved_text_beside_the_new_one(
    project: Project,
) -> None:
    _edited_after_promotion(project)
    _, review = project.gm("review")
    (item,) = review["items"]
    assert item["content"] == PROPOSED
    (replaced,) = item["replaces"]
    assert replaced["approvedText"] == APPROVED
    assert (project.root / ".memory" / "entries" / f"{replaced['entryId']}.md").is_file()
    text = run_cli(["review"], cwd=project.root).stdout
    assert f"    approved: {APPROVED}\n    proposed: {PROPOSED}" in text


def test_a_new_item_has_no_approved_text(project: Project) -> None:
    BUILDERS["gemini-memories"][0](project)
    project.gm("harvest")
    _, review = project.gm("review")
    assert all("replaces" not in item for item in review["items"])
    assert "approved:" not in run_cli(["review"], cwd=project.root).stdout


def test_the_terminal_review_shows_both_texts_before_asking(project: Project) -> None:
    _edited_after_promotion(project)
    terminal = Terminal(["review"], project.root)
    terminal.expect(CLAIM)
    screen = terminal.screen
    terminal.type("q")
    assert terminal.finish() == 0, terminal.screen
    approved = screen.index(f"approved: {APPROVED}")
    assert screen.index(f"proposed: {PROPOSED}") > approved
    assert screen.index("updates ") < approved


def test_memory_review_over_mcp_shows_both_texts(project: Project, tmp_path: Path) -> None:
    _edited_after_promotion(project)

    async def scenario() -> Any:
        async with stdio(server_parameters(project.root), tmp_path / "err.log") as client:
            return await client.call_tool("memory_review", {})

    result = anyio.run(scenario)
    assert not result.is_error, result
    (item,) = structured(result)["items"]
    assert item["content"] == PROPOSED
    assert [r["approvedText"] for r in item["replaces"]] == [APPROVED]
