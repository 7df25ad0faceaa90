"""What a person asks the agent to remember is a rule: the sentences before "remember this"
in the same message (`extract/builtin/remembered.py`)."""

from __future__ import annotations

import pytest

from git_memory.extract.builtin.acknowledged import Phrasing
from git_memory.extract.builtin.remembered import (
    REQUESTS,
    asks_to_remember,
    may_ask_to_remember,
)
from git_memory.extract.builtin.rules import rule_facts
from tests.extract.records import turn_record


@pytest.mark.parametrize("row", REQUESTS, ids=lambda row: row.language)
def test_every_row_reads_the_request_it_came_from(row: Phrasing) -> None:
    assert asks_to_remember(row.example)
    assert may_ask_to_remember(row.example), "the scan that spares most messages lets it through"


def _rules(typed: str) -> list[str]:
    return [fact.content for fact in rule_facts([turn_record("t1", user=typed)])]


@pytest.mark.parametrize(
    ("typed", "rule"),
    [
        (
            "Check src/locale for an existing key before adding a translation. Remember this.",
            "Check src/locale for an existing key before adding a translation.",
        ),
        (
            "Seed data lives in fixtures/seed.sql. Please add this to your memory.",
            "Seed data lives in fixtures/seed.sql.",
        ),
        # words of the moment ("当前") in what the person marks as standing themselves (zh)
        (
            "优先检查当前src/locale里是否有相同的翻译，有就直接用。这个要求添加到你的记忆文档里",
            "优先检查当前src/locale里是否有相同的翻译，有就直接用。",
        ),
        (
            "Bei Übersetzungen zuerst src/locale prüfen. Merk dir das als Grundregel.",
            "Bei Übersetzungen zuerst src/locale prüfen.",
        ),
        (
            "Les traductions vont dans src/locale. Retiens ça.",
            "Les traductions vont dans src/locale.",
        ),
        # a time it holds for after the request
        (
            "Check src/locale for an existing key before adding one. Remember this for next time.",
            "Check src/locale for an existing key before adding one.",
        ),
        (
            "Seed data lives in fixtures/seed.sql. Keep this in mind going forward.",
            "Seed data lives in fixtures/seed.sql.",
        ),
        (
            "Translations live in src/locale. Remember this for future sessions.",
            "Translations live in src/locale.",
        ),
        (
            "Translations live in src/locale. Remember this rule.",
            "Translations live in src/locale.",
        ),
        (
            "Translations live in src/locale. Add this to your memory file.",
            "Translations live in src/locale.",
        ),
        (
            "Übersetzungen liegen in src/locale. Merk dir das fürs nächste Mal.",
            "Übersetzungen liegen in src/locale.",
        ),
        # a number first is no log line
        (
            "2 spaces for indentation in all YAML files. Remember this.",
            "2 spaces for indentation in all YAML files.",
        ),
        # only the sentence right before it
        (
            "Perfect, that fixed it. Seed data lives in fixtures/seed.sql. Remember this.",
            "Seed data lives in fixtures/seed.sql.",
        ),
    ],
)
def test_the_sentences_before_a_request_to_remember_them_are_rules(typed: str, rule: str) -> None:
    assert _rules(typed) == [rule]


@pytest.mark.parametrize(
    "typed",
    [
        "Remember this.",  # what it points at is in another message
        "Why does the build fail on CI? Remember this.",  # a question is no rule
        "Do you remember this file?",
        "I remember this bug from last week.",
        "这个文件你还记得吗？",
        # a question, a negation
        "The login page is broken after the last deploy. Remember this bug from last week?",
        "テストが失敗しました。これを覚えていますか？",
        "这是临时的调试代码。不要把这个写到记忆里。",
        "这是临时的调试代码。这个写到记忆里了吗？",
        # what it points at comes after it, or is pasted output
        "Here is the output of the build. Keep this in mind when fixing.",
        "Fix the login bug in auth.py. Remember these steps:\n1. run the tests",
        "I pasted the output below.\nRemember this.\nFAILED tests/test_a.py::test_x",
        "npm ERR! code ERESOLVE\nnpm ERR! peer dep missing\nRemember this.",
        "Build log:\n[12:01:02] compiled 12 files\nRemember this.",
        "Hmm, that's weird. Remember this.",
        "Remember that issue we had with unicode?",
    ],
)
def test_a_request_to_remember_with_nothing_before_it_or_a_question_is_no_rule(
    typed: str,
) -> None:
    assert _rules(typed) == []
