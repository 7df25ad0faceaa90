"""The builtin extractor's drafts reach the agent through the real Claude Code CLI, and the
agent that copies them as they are reaches review with them (issue 41).

The scripted model recalls the Claude sample session and stages the task's `builtinDrafts`
(what the builtin extractor found there with observed evidence) next to one draft of its own,
decides them, and promotes: every draft is in review, the builtin ones with the command and
its observed result quoted where they came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.extract.flow import candidate, draft_batch
from tests.realcli.fake_model import Call, ScriptedAgent, ToolResult
from tests.realcli.test_claude_code import run_on_sample

OWN = "Note for the team: the integration tests need the db container."


@dataclass
class CopyingAgent(ScriptedAgent):
    """recall (the Claude session) → stage its builtinDrafts and one draft of its own →
    adjudicate → review → prepare → promote."""

    marked: list[dict[str, Any]] = field(default_factory=list)

    def _after_memory_recall(self, recall: dict[str, Any], _: list[ToolResult]) -> Call:
        (task,) = recall["tasks"]
        self.marked = list(task.get("builtinDrafts") or [])
        turn = task["chunk"]["turnEvidence"][-1]["evidenceId"]
        own = candidate(OWN, [(OWN, [turn])], "work_fact")
        batch = draft_batch(task, [*self.marked, own])
        del batch["format"]  # the tool names the document kind
        return "memory_stage_drafts", batch


@pytest.mark.realcli("claude")
def test_claude_code_copies_the_builtin_drafts_and_reaches_review(
    tmp_path: Path, hermetic_env: dict[str, Path], entry_bin: Path, claude_bin: str
) -> None:
    scripted = CopyingAgent()
    sample, before = run_on_sample(claude_bin, tmp_path, hermetic_env, scripted)
    marked = sorted(draft["content"] for draft in scripted.marked)
    assert marked == [
        "`uv run pytest` runs the tests (worked in 1 session).",
        "`uv run ruff check .` lints the code (worked in 1 session).",
    ]
    review = next(document for name, document in scripted.seen if name == "memory_review")
    items = {item["content"]: item for item in review["items"]}
    assert sorted(items) == sorted([*marked, OWN])
    evidence = items[marked[0]]["statements"][0]["evidence"]
    quoted = [quote["text"] for item in evidence for quote in item.get("quotes") or []]
    assert "12 passed in 0.41s" in quoted
    support = {content: item["statements"][0]["claimSupport"] for content, item in items.items()}
    assert support == {marked[0]: "typed-fact", marked[1]: "typed-fact", OWN: "unverified"}
    assert scripted.seen[-1][0] == "memory_promote"
    assert scripted.seen[-1][1]["status"] == "applied", scripted.seen[-1][1]
    assert sample.repo.snapshot() == before
