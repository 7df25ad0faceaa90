"""A set-up step the person ran themselves and said so (issue 39 item 4): a run of the session,
so the failure it fixed is a trap though no tool call of the agent ran it."""

from __future__ import annotations

import re

import pytest

from git_memory.extract.builtin import renderers
from git_memory.extract.builtin.runs import session_runs
from git_memory.extract.builtin.told import DONE_CUES, told_steps
from git_memory.extract.builtin.traps import trap_facts
from git_memory.extract.builtin.window import plan_window
from git_memory.sessions.turns import ToolCall
from tests.extract.records import turn_record

NOT_FOUND = "\n> app@0.1.0 test\n> vitest run\n\nsh: 1: vitest: not found\nExit code: 127"
PASSED = " Test Files  5 passed (5)\n      Tests  12 passed (12)"


def _bash(command: str, output: str = "", state: str = "completed") -> ToolCall:
    return ToolCall("c", "Bash", {"command": command}, output, state)


def _told(text: str) -> list[str]:
    return [str(call.input["command"]) for call in told_steps(text)]


@pytest.mark.parametrize(("language", "pattern", "example"), DONE_CUES)
def test_each_languages_words_for_done_read_their_sentence(
    language: str, pattern: str, example: str
) -> None:
    assert re.search(pattern, example), language
    assert _told(example) == ["npm install"], language


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("done, ran `pip install -r requirements.txt`", "pip install -r requirements.txt"),
        ("I've run uv sync, you can retry", "uv sync"),
        ("I installed the dependencies with pnpm install now", "pnpm install"),
        ("我已经执行了 poetry install", "poetry install"),
        # a full stop inside the backticks or the command's own `.`: no end of a sentence
        ("I ran `uv pip install -e . --system`", "uv pip install -e . --system"),
        ("I ran pip install -e .", "pip install -e ."),
        ("I ran npm i", "npm i"),
        ("npm install done", "npm install"),
        ("ok, npm install is done", "npm install"),
        # what follows saying it is done, or that it helped, is no failure
        ("I ran `npm install` so it should work now", "npm install"),
        ("npm install 已经跑完了没问题", "npm install"),
        ("já rodei npm install, funcionou", "npm install"),
        ("запустил npm install, помогло", "npm install"),
    ],
)
def test_the_step_is_read_in_backticks_or_among_the_words(text: str, command: str) -> None:
    assert _told(text) == [command]


@pytest.mark.parametrize(
    "text",
    [
        "I ran npm install but it still fails",  # a failure told with it: it fixed nothing
        "npm install したけどまだ失敗する",
        "我已经执行了 npm install，还是报错",
        "please run npm install",  # asked for, not done
        "npm install",  # a bare command: a request as often as a report
        "I ran the tests",  # no set-up step named
        "I ran npm install and pip install -r requirements.txt",  # which one fixed it?
        "I ran npm test",  # a check the person ran is no set-up step
        "I ran npm install. " + "Then I looked at the page for a while. " * 6,  # no short note
        # asked, asked for, not done, or done and of no help
        "Should I run npm install?",
        "Run npm install, I've done the rest.",
        "npm install を実行したら教えて",  # "tell me when you have run it"
        "npm install 실행했는지 확인해줘",  # "check whether it was run"
        "你执行了 npm install 吗？",
        "не запустил npm install",
        "não rodei npm install",
        "ich habe npm install nicht ausgeführt",
        "I ran npm install, didn't help",
        "я запустил npm install, не помогло",
        "ya ejecuté npm install y no funcionó",
        "I run npm install every morning",  # a habit, not a step of this session
        "npm install やった？",  # questions, their mark in any clause
        "npm install 실행했습니까",
        "I already ran npm install?",
        # the sentence's own words after the command: where or why, not its arguments
        "I ran npm install in the backend folder",
        "I ran npm install I get EACCES permission denied",
    ],
)
def test_anything_else_is_no_step(text: str) -> None:
    assert _told(text) == []


def _session(*records: tuple[str, str, tuple[ToolCall, ...]]) -> list[object]:
    return [turn_record(key, *calls, user=user) for key, user, calls in records]


def test_a_failure_the_persons_step_fixed_is_a_trap() -> None:
    records = _session(
        ("t1", "run the tests", (_bash("npm test", NOT_FOUND, "failed"),)),
        ("t2", "npm install は私が実施した", (_bash("npm test", PASSED),)),
    )
    (trap,) = trap_facts(list(session_runs(records)))
    assert trap.content == (
        'Trap: `npm test` fails with "sh: 1: vitest: not found" unless `npm install` runs first.'
    )
    assert trap.turn_keys == ("t1", "t2")
    assert renderers.verify_typed_fact(trap.renderer, trap.statement, trap.parameters)
    # Without the person's note, nothing tells what made it work.
    records[1] = turn_record("t2", _bash("npm test", PASSED), user="try again")
    assert trap_facts(list(session_runs(records))) == []


def test_a_pasted_note_or_a_failure_told_makes_no_step() -> None:
    for note in ("I ran npm install, same error", "# Notes\n\nI ran npm install\n\n## Log\n"):
        records = _session(
            ("t1", "run the tests", (_bash("npm test", NOT_FOUND, "failed"),)),
            ("t2", note, (_bash("npm test", PASSED),)),
        )
        assert trap_facts(list(session_runs(records))) == [], note


def test_the_persons_step_is_no_command_memory() -> None:
    records = [turn_record("a1", user="I ran `npm install`"), turn_record("a2", user="ok")]
    sessions = [("a", records), ("b", [turn_record("b1", user="I ran `npm install`")])]
    placed = plan_window(sessions, {"a1": "task-a", "a2": "task-a", "b1": "task-b"}, set()).placed
    assert placed == {}


def test_a_step_the_person_ran_before_the_same_command_is_quoted_from_their_words() -> None:
    records = _session(
        ("t1", "run the tests", (_bash("npm test", NOT_FOUND, "failed"),)),
        ("t2", "I ran `npm install`", ()),
        ("t3", "try again", (_bash("npm test", PASSED),)),
    )
    (trap,) = trap_facts(list(session_runs(records)))
    assert trap.turn_keys == ("t1", "t2", "t3")
    assert ("t2", "npm install", "user") in [(q.turn_key, q.text, q.part) for q in trap.quotes]


def test_the_persons_words_are_the_evidence_of_the_step_they_ran() -> None:
    eresolve = "npm ERR! ERESOLVE unable to resolve dependency tree"
    records = _session(
        ("t0", "install it", (_bash("npm install", eresolve, "failed"),)),
        ("t1", "I ran `npm install --legacy-peer-deps`, continue", ()),
    )
    (trap,) = trap_facts(list(session_runs(records)))
    assert trap.content.endswith("run `npm install --legacy-peer-deps` instead.")
    assert [(q.turn_key, q.part) for q in trap.quotes][-1] == ("t1", "user")


def test_only_a_step_the_fix_names_whole_quotes_the_persons_words() -> None:
    records = _session(
        ("t1", "run the tests", (_bash("npm test", NOT_FOUND, "failed"),)),
        ("t2", "I ran `npm i`", ()),
        ("t3", "go on", (_bash("npm install", "added 3 packages"),)),
        ("t4", "go on", (_bash("npx prisma generate", "Generated Prisma Client"),)),
        ("t5", "go on", (_bash("npm run build", "built in 2s"),)),
        ("t6", "again", (_bash("npm test", PASSED),)),
    )
    (trap,) = trap_facts(list(session_runs(records)))
    # the fix keeps its last three steps: `npm i` is not one of them, though `npm install` is
    assert "npm i &&" not in dict(trap.parameters)["fix"] + " &&"
    assert "t2" not in trap.turn_keys
    assert all(q.part != "user" for q in trap.quotes)
