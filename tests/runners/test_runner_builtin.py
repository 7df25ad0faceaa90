"""The builtin extractor: typed facts only through fixed renderers, user rules quoted."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from git_memory.repo.binding import discover_worktree
from git_memory.runners import builtin
from git_memory.sessions.query import EvidenceEdge, TurnRecord, select_turns
from git_memory.sessions.turns import ToolCall
from git_memory.testing.repos import Repo
from tests.sessions.transcripts import (
    claude_assistant,
    claude_path,
    claude_user,
    tool_result,
    write_jsonl,
)


def _turn(key: str, *calls: ToolCall, user: str = "", commits: tuple[str, ...] = ()) -> Any:
    return TurnRecord(
        turn_key=key,
        session_key="s" * 64,
        provider="claude-code",
        ordinal=0,
        started="2026-01-01T00:00:00.000Z",
        ended=None,
        cwd=None,
        revision="r" * 64,
        closure="hard-sealed",
        user_text=user,
        assistant_text="",
        tool_calls=calls,
        skills=(),
        evidence=tuple(EvidenceEdge("commit", c, "direct") for c in commits),
    )


def _bash(command: Any, state: str = "completed", name: str = "Bash") -> ToolCall:
    return ToolCall(call_id="c", name=name, input={"command": command}, state=state)


def test_successful_test_command_becomes_a_typed_fact() -> None:
    records = [
        _turn("t1", _bash("uv run pytest -q")),
        _turn("t2", _bash("uv run pytest -q"), _bash("ls -la")),
        _turn("t3", _bash("uv run pytest -q -x", state="failed")),
    ]
    (fact,) = builtin.command_facts(records)
    assert fact.renderer == "command-exit@1"
    assert fact.claim_support == "typed-fact"
    assert fact.text == "The test command `uv run pytest -q` succeeded (exit 0) in this repository."
    assert fact.turn_keys == ("t1", "t2")
    assert builtin.verify_typed_fact(fact.renderer, fact.text, fact.parameters)


@pytest.mark.parametrize(
    ("command", "kind"),
    [
        ("npm run lint", "lint"),
        ("ruff format .", "format"),
        ("cargo build --release", "build"),
        ("make test", "test"),
        ("mypy git_memory && echo ok", "lint"),
        ("echo pytest", None),
        ("cat README.md | grep pytest", None),
    ],
)
def test_command_kinds(command: str, kind: str | None) -> None:
    assert builtin.command_kind(command) == kind


def test_codex_shell_shapes() -> None:
    argv = ToolCall(call_id="c", name="shell", input={"command": ["bash", "-lc", "go test ./..."]})
    exec_cmd = ToolCall(call_id="c", name="exec_command", input={"cmd": "pnpm test"})
    other = ToolCall(call_id="c", name="Read", input={"file_path": "x"})
    assert builtin.command_of(argv) == "go test ./..."
    assert builtin.command_of(exec_cmd) == "pnpm test"
    assert builtin.command_of(other) is None


def test_commit_facts_need_an_existing_commit() -> None:
    real, gone = "a" * 40, "b" * 40
    records = [_turn("t1", commits=(real, gone)), _turn("t2", commits=(real,))]
    facts = builtin.commit_facts(
        records, lambda commit: ["src/app.py", "README.md"] if commit == real else None
    )
    (fact,) = facts
    assert fact.text == f"Commit {real} changed `README.md`, `src/app.py`."
    assert fact.turn_keys == ("t1", "t2")
    assert builtin.verify_typed_fact(fact.renderer, fact.text, fact.parameters)


def test_user_rules_are_quoted_and_unverified() -> None:
    records = [
        _turn("t1", user="Thanks. Always run the tests with uv run pytest -q. Nice work!"),
        _turn("t2", user="Use ruff instead of flake8\nplease"),
        _turn("t3", user="never commit AKIAIOSFODNN7EXAMPLE to the repo"),
        _turn("t4", user="I always forget"),
    ]
    texts = [(f.text, f.claim_support, f.turn_keys) for f in builtin.user_rules(records)]
    assert (
        'The user said: "Always run the tests with uv run pytest -q."',
        "unverified",
        ("t1",),
    ) in texts
    assert ('The user said: "Use ruff instead of flake8"', "unverified", ("t2",)) in texts
    assert not any("AKIA" in text for text, _, _ in texts)  # the lint gate dropped it


MUTATIONS = [
    "The test command `uv run pytest -q` succeeded (exit 0) in this repository!",
    "The test command `uv run pytest` succeeded (exit 0) in this repository.",
    "The lint command `uv run pytest -q` succeeded (exit 0) in this repository.",
    "The test command `uv run pytest -q` succeeded (exit 0) in this repository. Also deploy.",
    "the test command `uv run pytest -q` succeeded (exit 0) in this repository.",
]


@pytest.mark.parametrize("text", MUTATIONS)
def test_no_other_text_can_claim_typed_fact(text: str) -> None:
    parameters = (("command", "uv run pytest -q"), ("kind", "test"))
    assert builtin.verify_typed_fact("command-exit@1", text, parameters) is False
    assert (
        builtin.verify_typed_fact("command-exit@1", text, (("command", "x"), ("kind", "test")))
        is False
    )


def test_typed_fact_parameters_must_fit_the_renderer() -> None:
    text = builtin.render_command_exit("echo hi", "test")  # not a test command at all
    assert not builtin.verify_typed_fact(
        "command-exit@1", text, (("command", "echo hi"), ("kind", "test"))
    )
    assert not builtin.verify_typed_fact("model-says@1", text, ())
    commit_text = builtin.render_commit_paths("not-a-commit", ["a"])
    assert not builtin.verify_typed_fact(
        "commit-changed-path@1", commit_text, (("commit", "not-a-commit"), ("path", "a"))
    )


def test_a_real_session_where_pytest_passed(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    cwd = str(repo.root)
    call = {
        "type": "tool_use",
        "id": "t1",
        "name": "Bash",
        "input": {"command": "uv run pytest -q"},
    }
    failing = {"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "ruff check ."}}
    records = [claude_user("Run the tests. Always use uv run for Python tools.", cwd)]
    records += [claude_assistant([call], cwd, "m1"), tool_result("t1", "12 passed", cwd)]
    records += [claude_assistant([failing], cwd, "m2")]
    records += [tool_result("t2", "E501 line too long", cwd, is_error=True)]
    records += [claude_assistant([{"type": "text", "text": "All green."}], cwd, "m3")]
    path = claude_path(hermetic_env["claude"], "11111111-2222-4333-8444-555555555555")
    write_jsonl(path, records, time.time() - 3 * 3600)
    assert gm(["sessions", "sync"], cwd=repo.root).exit_code == 0
    turns = select_turns(discover_worktree(repo.root))
    (fact,) = builtin.command_facts(turns)
    assert fact.text == "The test command `uv run pytest -q` succeeded (exit 0) in this repository."
    assert fact.turn_keys == (turns[0].turn_key,)
    (rule,) = builtin.user_rules(turns)
    assert rule.text == 'The user said: "Always use uv run for Python tools."'
