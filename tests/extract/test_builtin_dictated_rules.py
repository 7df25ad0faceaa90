"""Rules a person dictates into the agent's instruction file (issue 39): each line of the text
is a rule quoted as typed, whatever its wording; a report of such an edit, a question about it
and a program's prompt that only names the file dictate nothing."""

from __future__ import annotations

import pytest

from git_memory.extract.builtin.dictated import dictated
from git_memory.extract.builtin.rules import rule_facts
from git_memory.sessions.providers import claude_code
from tests.extract.records import turn_record


def _rules(text: str) -> list[str]:
    return [fact.content for fact in rule_facts([turn_record("t1", user=text)])]


DICTATED = [
    (
        '写入AGENTS.md:"用中文交流，先读 README\n提交信息写成一句话"',
        ["用中文交流，先读 README", "提交信息写成一句话"],
    ),
    (
        "Add to CLAUDE.md: keep migrations in db/migrations. Tests go next to the module.",
        ["Keep migrations in db/migrations.", "Tests go next to the module."],
    ),
    ("CLAUDE.mdに追記して：「テストはuv runで実行する」", ["テストはuv runで実行する"]),
    ("добавь в AGENTS.md: отвечай коротко", ["отвечай коротко"]),
    ("请把这条加到 .cursorrules：组件文件名用 kebab-case", ["组件文件名用 kebab-case"]),
    (  # a session of a public repository: the text opened by a comma right after the verb
        "你在claude.md里加上,在回答问题之前,先检查是否有可用skills.我发现我给你装的插件,你都不调用",
        ["在回答问题之前,先检查是否有可用skills.我发现我给你装的插件,你都不调用"],
    ),
    ("在CLAUDE.md里加上一句，回答前先检查现有代码", ["回答前先检查现有代码"]),
    ("请在 CLAUDE.md 里添加一条规则，提交前必须运行测试", ["提交前必须运行测试"]),
    ("你帮我在CLAUDE.md里加上，提交前必须运行测试", ["提交前必须运行测试"]),
    # a question word inside the text does not make it a question
    ("在CLAUDE.md里加上，回答问题时不要问我为什么", ["回答问题时不要问我为什么"]),
    (  # a list a line introduces is part of its rule
        "Add to CLAUDE.md: in Markdown documents, add a blank line between:\n\n- headers and"
        " body\n- body and bullet lists\nNever wrap lines.",
        [
            "In Markdown documents, add a blank line between: headers and body; body and bullet"
            " lists.",
            "Never wrap lines.",
        ],
    ),
    (  # typed without capitals: each full stop after a word still ends a rule; Turkish is
        # quoted as typed, English in sentence case
        "Add to AGENTS.md: yorumlar türkçe olacak. her görev bitiminde git commit edilecek."
        " e.g. and vs. stay inside a sentence.",
        [
            "yorumlar türkçe olacak.",
            "her görev bitiminde git commit edilecek.",
            "E.g. and vs. stay inside a sentence.",
        ],
    ),
]


@pytest.mark.parametrize(("typed", "shown"), DICTATED, ids=[t[:14] for t, _ in DICTATED])
def test_each_dictated_line_is_a_rule_quoted_as_typed(typed: str, shown: list[str]) -> None:
    assert _rules(typed) == shown
    facts = rule_facts([turn_record("t1", user=typed)])
    assert all(fact.quotes[0].part == "user" for fact in facts)


NOT_DICTATED = [
    "I updated CLAUDE.md: it lists the commands now.",
    "Should we add to CLAUDE.md: the deploy steps?",
    "Please analyze this codebase and create a CLAUDE.md file, which will be given to future"
    " instances of Claude Code to operate in this repository.\n\nWhat to add:\n1. Commands",
    "Read AGENTS.md: what does it say about tests",
    "已经写入AGENTS.md：中文对话",
    # a comma after the file's name alone, or after what is not a verb of writing
    "Add to CLAUDE.md, it is important",
    "读一下CLAUDE.md里加上的内容, 然后继续",
    "我看了CLAUDE.md，写得不错",
    # a comma after a report, a question, or what the request is about
    "你在CLAUDE.md里写入，为什么没生效",
    "把这条规则在CLAUDE.md里加上, 然后继续修bug",
    "CLAUDE.md里我已经添加，但是agent还是不遵守",
    "Update AGENTS.md and add, then commit and push the branch.",
]


@pytest.mark.parametrize("typed", NOT_DICTATED, ids=[t[:14] for t in NOT_DICTATED])
def test_a_report_a_question_or_a_long_prompt_dictates_nothing(typed: str) -> None:
    assert dictated(typed) is None


def test_questions_in_the_dictated_text_are_no_rules() -> None:
    typed = "Add to AGENTS.md:\nkeep functions small and typed\nWhy not classes?"
    assert _rules(typed) == ["Keep functions small and typed."]


def test_the_same_words_outside_a_dictation_need_a_rule_of_their_own() -> None:
    assert _rules("提交信息写成一句话") == []


def test_what_a_person_types_into_the_agents_memory_is_a_rule() -> None:
    """Claude Code records a line typed after its `#` memory shortcut as a user record holding
    `<user-memory-input>`: read by the real reader, it is a rule, whatever its wording."""
    record = {
        "type": "user",
        "sessionId": "c0ffee",
        "timestamp": "2026-01-01T00:00:00.000Z",
        "cwd": "/repo",
        "message": {
            "role": "user",
            "content": "<user-memory-input>staging lives on port 8443</user-memory-input>",
        },
    }
    events = claude_code.read_record(record, 0, claude_code.new_state())
    typed = events[0].text or ""
    assert _rules(typed) == ["Staging lives on port 8443."]
    assert _rules("staging lives on port 8443") == [], "the same words typed plainly state nothing"
    assert dictated("<user-memory-input>  </user-memory-input>") is None
