"""The reason a person typed when refusing one of the agent's tool calls (issue 39): a rule
when it adopts, prefers or forbids a tool or command of the project; a question, pasted output
or a correction of the task's behaviour is none."""

from __future__ import annotations

import pytest

from git_memory.extract.builtin.rules import rule_facts
from git_memory.sessions.turns import ToolCall
from tests.extract.records import turn_record

REFUSED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it"
    " was a file edit, the new_string was NOT written to the file). The user provided the"
    " following reason for the rejection:  "
)


def _rules(reason: str, state: str = "failed") -> list[str]:
    call = ToolCall(
        call_id="c1",
        name="Write",
        input={"file_path": ".github/workflows/deploy.yml"},
        output=REFUSED + reason,
        state=state,
    )
    return [fact.content for fact in rule_facts([turn_record("t1", call, user="add a CI build")])]


@pytest.mark.parametrize(
    ("reason", "rule"),
    [
        ("用pnpm构建", "用pnpm构建"),
        ("use yarn, not npm", "Use yarn, not npm."),
        ("please run `make fmt` instead", "Please run `make fmt` instead."),
    ],
)
def test_a_refusal_that_names_the_projects_tool_is_a_rule(reason: str, rule: str) -> None:
    assert _rules(reason) == [rule]


@pytest.mark.parametrize(
    "reason",
    [
        "这个node是最新版吗",  # a question
        "不是这个效果，要从左右两边同时出现",  # the task's behaviour
        "make the button blue",
        "(base) PS C:\\code> node --version\nv22.14.0",  # pasted output
    ],
)
def test_a_question_output_or_a_correction_of_the_task_is_no_rule(reason: str) -> None:
    assert _rules(reason) == []


def test_only_a_refused_call_carries_a_reason() -> None:
    assert _rules("use yarn, not npm", state="completed") == []
