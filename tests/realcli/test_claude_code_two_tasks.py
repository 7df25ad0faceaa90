"""Two tasks drafted before either is adjudicated, through the real Claude Code CLI.

The scripted model recalls the Claude and the Codex sample session (one task each), stages a
draft batch for both, and only then answers their adjudication tasks. Both batches draft the
same test command, so deciding the first moves the second's pool: its answer is refused as
stale with the task reissued against the current pool, and the model answers that one. Both
tasks' drafts reach review, none is left a draft, and the flow ends in a promotion.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.extract.conftest import SINCE, UNTIL
from tests.extract.flow import decisions, sample_batch
from tests.mcp.test_mcp_drafts_converge import codex_batch
from tests.realcli.fake_model import Call, ScriptedAgent, ToolResult
from tests.realcli.test_claude_code import run_on_sample


def _recall(provider: str) -> dict[str, Any]:
    window = {"after": SINCE, "before": UNTIL}
    return {"request": {"window": window, "filters": {"providers": [provider]}}}


@dataclass
class TwoTasksAgent(ScriptedAgent):
    """recall ×2 → stage drafts ×2 → stage adjudication ×2 (again when stale) → review →
    prepare → promote."""

    tasks: list[dict[str, Any]] = field(default_factory=list)
    adjudications: list[dict[str, Any]] = field(default_factory=list)
    stale: list[dict[str, Any]] = field(default_factory=list)

    def _after_memory_recall(self, recall: dict[str, Any], _: list[ToolResult]) -> Call:
        (task,) = recall["tasks"]
        self.tasks.append(task)
        if len(self.tasks) == 1:
            return "memory_recall", _recall("codex")
        return "memory_stage_drafts", self._without_format(sample_batch(self.tasks[0]))

    def _after_memory_stage_drafts(self, staged: dict[str, Any], _: list[ToolResult]) -> Call:
        assert staged.get("status") == "adjudication-required", staged
        self.adjudications.append(staged["adjudicationTask"])
        if len(self.adjudications) == 1:
            return "memory_stage_drafts", self._without_format(codex_batch(self.tasks[1]))
        return "memory_stage_adjudication", decisions(self.adjudications.pop(0))

    def _after_memory_stage_adjudication(self, staged: dict[str, Any], _: list[ToolResult]) -> Call:
        if staged.get("code") == "GM_TASK_STALE":
            self.stale.append(staged)
            return "memory_stage_adjudication", decisions(staged["details"]["adjudicationTask"])
        assert staged.get("status") == "staged", staged
        if self.adjudications:
            return "memory_stage_adjudication", decisions(self.adjudications.pop(0))
        return "memory_review", {}

    @staticmethod
    def _without_format(batch: dict[str, Any]) -> dict[str, Any]:
        # The tool names the document kind; the agent leaves `format` out.
        del batch["format"]
        return batch


@pytest.mark.realcli("claude")
def test_claude_code_drafts_two_tasks_before_adjudicating_and_both_reach_review(
    tmp_path: Path, hermetic_env: dict[str, Path], entry_bin: Path, claude_bin: str, gm: Any
) -> None:
    scripted = TwoTasksAgent()
    sample, before = run_on_sample(claude_bin, tmp_path, hermetic_env, scripted)
    names = [name for name, _ in scripted.calls]
    assert names[:6] == [
        "memory_recall",
        "memory_recall",
        "memory_stage_drafts",
        "memory_stage_drafts",
        "memory_stage_adjudication",
        "memory_stage_adjudication",
    ], names
    # The second batch's pool moved when the first was decided: refused once, then answered
    # against the reissued task.
    (refused,) = scripted.stale
    assert refused["details"]["reissuedTaskId"] == refused["details"]["adjudicationTask"]["taskId"]
    drafted = [
        candidate["content"]
        for name, arguments in scripted.calls
        if name == "memory_stage_drafts"
        for candidate in arguments["candidates"]
    ]
    review = next(document for name, document in scripted.seen if name == "memory_review")
    assert sorted(item["content"] for item in review["items"]) == sorted(drafted)
    promoted = scripted.seen[-1][1]
    assert scripted.seen[-1][0] == "memory_promote"
    assert promoted["status"] == "applied", promoted
    assert len(promoted["files"]) == len(drafted)
    status = gm(["status", "--format", "json"], cwd=sample.root)
    assert status.exit_code == 0, status.stderr
    candidates = json.loads(status.stdout)["counts"]["memory"]["candidates"]
    assert candidates["draft"] == 0, candidates
    assert sample.repo.snapshot() == before
