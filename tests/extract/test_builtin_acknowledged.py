"""What the agent took as standing (issue 39): a person's statement that no cue of any language
reads is a rule when the agent's answer says it will hold from now on, or saves it to its
memory; not when the answer only does the task, says so too late, or the message is a brief."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from git_memory.extract.builtin.acknowledged import (
    ACKNOWLEDGEMENTS,
    Phrasing,
    acknowledgement,
)
from git_memory.extract.builtin.rules import rule_facts
from git_memory.sessions.query import TurnRecord
from git_memory.sessions.turns import ToolCall
from tests.extract.records import turn_record
from tests.repos import Repo
from tests.sessions.transcripts import claude_path, claude_turn, write_jsonl


@pytest.mark.parametrize("row", ACKNOWLEDGEMENTS, ids=lambda row: row.language)
def test_every_row_reads_the_answer_it_came_from(row: Phrasing) -> None:
    assert acknowledgement(row.example, ())


def _answered(user: str, answer: str, *calls: ToolCall) -> TurnRecord:
    return replace(turn_record("t1", *calls, user=user), assistant_text=answer)


def _rules(user: str, answer: str, *calls: ToolCall) -> list[str]:
    return [fact.content for fact in rule_facts([_answered(user, answer, *calls)])]


# (what the person typed, no cue reads it, and how the agent took it as standing)
ACKNOWLEDGED = [
    ("回复我用繁体", "好的，以后我会用繁体中文回复。"),
    ("数据库字段名写成下划线风格", "明白，今后我都会用下划线命名数据库字段。"),
    ("ответы делай короткими", "Понял, впредь буду отвечать коротко."),
    ("変数名はキャメルケースにして", "承知しました。今後はキャメルケースで書きます。"),
    ("変数名はキャメルケースにして", "承知しました。以降はキャメルケースで書きます。"),
    ("変数名はキャメルケースにして", "承知しました。以降すべてキャメルケースで書きます。"),
    ("変数名はキャメルケースにして", "申し訳ありません。以後気をつけます。"),
    ("답변은 짧게 해줘", "알겠습니다. 앞으로는 짧게 답변하겠습니다."),
    ("respuestas cortas, con ejemplos de código", "Entendido. A partir de ahora seré breve."),
    ("Kurze Antworten, mit Codebeispielen", "Alles klar, ab jetzt werde ich kurz antworten."),
    ("Réponses courtes avec des exemples", "Compris, désormais je serai bref."),
]


@pytest.mark.parametrize(("typed", "answer"), ACKNOWLEDGED, ids=[a[:10] for _, a in ACKNOWLEDGED])
def test_a_statement_the_agent_takes_as_standing_is_a_rule(typed: str, answer: str) -> None:
    assert _rules(typed, "I'll look at the code first.") == [], "no cue reads it alone"
    facts = rule_facts([_answered(typed, answer)])
    assert [fact.statement for fact in facts] == [typed]
    assert facts[0].quotes[0].part == "user"


def test_english_is_shown_as_the_rule() -> None:
    rules = _rules(
        "Keep the API responses in camelCase",
        "Understood — I'll always use camelCase for the API responses.",
    )
    assert rules == ["Keep the API responses in camelCase."]


def test_a_memory_the_agent_saves_makes_the_statement_a_rule() -> None:
    save = ToolCall(
        call_id="m",
        name="save_memory",
        input={"fact": "The staging server listens on port 8443"},
        state="completed",
    )
    typed = "The staging server is the one on port 8443"
    assert _rules(typed, "Noted.") == []
    assert _rules(typed, "Noted.", save) == [typed + "."]


NOT_ACKNOWLEDGED = [
    # the answer does the task; "from now on" is about the program, not the agent's conduct
    ("回复我用繁体", "已修改，现在页面以后会自动刷新。"),
    ("Keep the API responses in camelCase", "From now on the responses are camelCase: done."),
    # the acknowledgement comes long after the answer's first words
    ("Keep the API responses in camelCase", "Done. " + "x" * 500 + " I'll always do that."),
    # "noted", said to whatever the agent was told: a thought for later, "let's go on"
    ("这个先记下来，啃完骨头后再想办法优化。", "记下了。"),
    ("我们继续", "明白，记下了。"),
    ("respuestas cortas", "Tomo nota."),
    ("Réponses courtes", "C'est noté."),
    # 以降 after a name: the blocks after it, not "from now on"
    (
        "Req 6 を Req 2 に、Req 7 を Req 3 に変更して。",
        "これから `Requirement 2` 以降のブロックを並び替えて再採番します。",
    ),
    ("Req 6 を Req 2 に変更して。", "`Requirement 2` 以降は番号を1つずつ繰り下げます。"),
    ("10行目から消して", "10行目以降は不要なので削除します。"),
]


@pytest.mark.parametrize(("typed", "answer"), NOT_ACKNOWLEDGED)
def test_an_answer_that_only_does_the_task_acknowledges_nothing(typed: str, answer: str) -> None:
    assert _rules(typed, answer) == []


def test_an_error_pasted_with_the_statement_is_not_part_of_the_rule() -> None:
    answer = "Let me save this to memory: Odoo 18 uses list."
    typed = "Invalid view type: 'tree'.\n\nWe are on Odoo 18, list views only"
    assert _rules(typed, answer) == ["We are on Odoo 18, list views only."]
    # a statement about errors typed alone is no error pasted
    assert _rules("Error messages are in English.", answer) == ["Error messages are in English."]


def test_a_brief_a_question_or_a_dispute_is_no_rule_however_answered() -> None:
    answer = "Understood — I'll keep that in mind from now on."
    brief = " ".join(["Build the settings page with a dark theme and three tabs."] * 8)
    assert _rules(brief, answer) == []
    assert _rules("Can you keep the answers short?", answer) == []
    assert _rules("That is actually not correct.", answer) == []
    assert _rules("For now keep the answers short.", answer) == []
    # who the person is belongs to them, not to the project's memory
    assert _rules("My name is Jeremie Rykner remember it.", answer) == []
    assert _rules("Hi, my name's Ana, keep it in mind.", answer) == []


def test_the_agents_words_are_quoted_beside_the_persons() -> None:
    """A reviewer sees why the statement is a rule: the sentence of the answer that took it
    as standing is quoted from the agent's part of the turn."""
    answer = "Sure. Understood — I'll always use camelCase for them. Updating the API now."
    (fact,) = rule_facts([_answered("Keep the API responses in camelCase", answer)])
    assert [(q.part, q.text) for q in fact.quotes] == [
        ("user", "Keep the API responses in camelCase"),
        ("assistant", "Understood — I'll always use camelCase for them."),
    ]
    save = ToolCall(call_id="m", name="save_memory", input={"fact": "x"}, state="completed")
    (saved,) = rule_facts([_answered("staging listens on port 8443", "Noted.", save)])
    assert [q.part for q in saved.quotes] == ["user"]


def test_review_shows_the_agents_acknowledgement_under_the_rule(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    """Through the real commands: a Claude Code session whose agent took a statement as
    standing gives a rule whose review shows the person's words and the agent's."""
    old = time.time() - 6 * 3600
    turn = claude_turn(
        "数据库字段名写成下划线风格",
        "明白，今后我都会用下划线命名数据库字段。先看一下现有的模型。",
        str(repo.root),
        "msg_1",
    )
    write_jsonl(claude_path(hermetic_env["claude"], "s"), turn, mtime=old)
    assert gm(["sessions", "sync"], cwd=repo.root).exit_code == 0
    window = ["--since", "2026-02-28T00:00:00.000Z", "--until", "2026-03-02T00:00:00.000Z"]
    run = gm(["extract", "--runner", "builtin", *window], cwd=repo.root)
    assert run.exit_code == 0, run.stderr + run.stdout
    review = gm(["review", "--format", "json"], cwd=repo.root)
    (item,) = review.json()["items"]
    assert item["content"] == "数据库字段名写成下划线风格"
    (statement,) = item["statements"]
    assert statement["origins"] == ["person", "agent"]
    quotes = [(q["origin"], q["text"]) for e in statement["evidence"] for q in e["quotes"]]
    assert quotes == [
        ("person", "数据库字段名写成下划线风格"),
        ("agent", "明白，今后我都会用下划线命名数据库字段。"),
    ]
