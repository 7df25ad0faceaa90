"""The builtin extractor on excerpts of real sessions (issue 26): rules only from what a person
typed, traps a teammate can follow, and review showing the words behind every fact.

The sessions are `tests/fixtures/issue26-excerpts/` (see its PROVENANCE.md), installed for a
real repository, indexed by `git memory sessions sync` and extracted by the real command.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from git_memory.assemble.groups import group_of
from git_memory.extract.builtin.renderers import MAX_ERROR_CHARS
from git_memory.extract.builtin.runner import NOTHING_FOUND, NOTHING_NEW
from tests.conftest import FIXTURES
from tests.repos import Repo
from tests.sessions.transcripts import claude_path, codex_path

EXCERPTS = FIXTURES / "issue26-excerpts"
WINDOW = ["--since", "2026-03-01T00:00:00.000Z", "--until", "2026-03-06T00:00:00.000Z"]


def _install(repo: Repo, env: dict[str, Path]) -> None:
    """Every excerpt as its agent stores it, for this repository, sealed (hours old)."""
    old = time.time() - 6 * 3600
    for source in sorted(EXCERPTS.glob("*.jsonl")):
        agent, _, name = source.name.split("__", 2)
        text = source.read_text(encoding="utf-8").replace("@@CWD@@", str(repo.root))
        if agent == "claude-code":
            target = claude_path(env["claude"], name.removesuffix(".jsonl"))
        else:
            target = codex_path(env["codex"], name.removesuffix(".jsonl").split("-", 6)[-1])
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        os.utime(target, (old, old))


@pytest.fixture
def extracted(gm: Any, repo: Repo, hermetic_env: dict[str, Path]) -> dict[str, Any]:
    """The extract run's JSON and text output and the review queue after it."""
    _install(repo, hermetic_env)
    assert gm(["sessions", "sync"], cwd=repo.root).exit_code == 0
    run = gm(["extract", "--runner", "builtin", *WINDOW, "--format", "json"], cwd=repo.root)
    assert run.exit_code == 0, run.stderr + run.stdout
    review = gm(["review", "--format", "json"], cwd=repo.root)
    assert review.exit_code == 0, review.stderr
    text = gm(["review", "--format", "text"], cwd=repo.root)
    return {"extract": run.json(), "items": review.json()["items"], "text": text.stdout}


def _contents(extracted: dict[str, Any]) -> list[str]:
    return [item["content"] for item in extracted["items"]]


def _item(extracted: dict[str, Any], start: str) -> dict[str, Any]:
    return next(i for i in extracted["items"] if i["content"].startswith(start))


def test_rules_come_only_from_what_a_person_typed(extracted: dict[str, Any]) -> None:
    rules = [c for c in _contents(extracted) if not c.startswith(("`", "Trap: "))]
    assert sorted(rules) == sorted(
        [
            # kept whole: the continuation after ";" is part of the rule
            "Don't edit files under internal/gen by hand; regenerate them with `make generate`.",
            "Schema changes go through an alembic migration.",
            "Use cargo nextest run instead of cargo test.",
            "Commits must carry the `Signed-off-by` trailer.",
        ]
    )
    # Not from the pasted plans, the SDK session, the `codex exec` prompt, the system
    # reminder, nor the conversational fragments split at "but" or matched on "should always".
    for absent in ("make check", "pnpm", "push directly", "French", "staged files", "commit after"):
        assert not any(absent in rule for rule in rules), absent


def test_conventions_and_remembered_statements_are_rules(extracted: dict[str, Any]) -> None:
    for start in ("Schema changes go through", "Commits must carry"):
        item = _item(extracted, start)
        assert group_of(item["type"], item["content"]) == "rules", item["content"]
    # A prohibition is a guardrail, shown first (docs/guide-context.md, "Guardrails first").
    item = _item(extracted, "Don't edit files")
    assert group_of(item["type"], item["content"]) == "traps", item["content"]


def test_a_command_a_stated_rule_forbids_is_not_proposed_as_working(
    extracted: dict[str, Any],
) -> None:
    contents = _contents(extracted)
    assert "`cargo nextest run` runs the tests (worked in 1 session)." in contents
    assert not any(c.startswith("`cargo test`") for c in contents)


def test_programs_prompts_still_show_commands(extracted: dict[str, Any]) -> None:
    contents = _contents(extracted)
    assert "`pnpm test` runs the tests (worked in 1 session)." in contents
    assert "`make test` runs the tests (worked in 1 session)." in contents


def test_traps_quote_the_real_failure_and_never_a_weakened_safeguard(
    extracted: dict[str, Any],
) -> None:
    traps = [c for c in _contents(extracted) if c.startswith("Trap: ")]
    rust = next(t for t in traps if t.startswith("Trap: `cargo build`"))
    assert "rustc 1.93 is not supported" in rust
    assert "resolve host" not in rust
    assert "download" not in rust
    go = next(t for t in traps if t.startswith("Trap: `go test ./...`"))
    error = go.split('"')[1]
    assert error.endswith("…")
    assert len(error) <= MAX_ERROR_CHARS
    whole = (
        "internal/store/pg.go:9:2: missing go.sum entry for module providing package "
        "github.com/jackc/pgx/v5 (imported by example.com/ledger/internal/store); to add:"
    )
    cut = error.removesuffix("…")
    assert whole.startswith(cut)
    assert whole[len(cut)] == " ", "the cut ends on a whole word"
    unsafe = ("--break-system-packages", "--no-verify", "sudo ")
    assert not any(flag in trap for trap in traps for flag in unsafe)
    assert not any(t.startswith("Trap: `pip3 install") for t in traps)
    assert not any(t.startswith("Trap: `git commit`") for t in traps)


def test_review_shows_the_run_and_result_under_a_command_fact(extracted: dict[str, Any]) -> None:
    (statement,) = _item(extracted, "`cargo nextest run`")["statements"]
    assert statement["origins"] == ["tool"]
    quotes = [q for e in statement["evidence"] for q in e["quotes"]]
    assert [q["text"] for q in quotes] == [
        "cargo nextest run",
        "Summary [   1.902s] 12 tests run: 12 passed, 0 skipped",
    ]
    assert {q["origin"] for q in quotes} == {"tool"}
    assert "cargo nextest run" in extracted["text"]
    shown = "[a tool call and its output, 2026-03-03] Summary [   1.902s] 12 tests run"
    assert shown in extracted["text"]


def test_review_shows_the_persons_words_with_the_date_under_a_rule(
    extracted: dict[str, Any],
) -> None:
    (statement,) = _item(extracted, "Don't edit files")["statements"]
    assert statement["origins"] == ["person"]
    (quote,) = [q for e in statement["evidence"] for q in e["quotes"]]
    assert quote == {
        "origin": "person",
        "text": "Don't edit files under internal/gen by hand; regenerate them with `make generate`",
        "at": "2026-03-03T09:00:00.000Z",
    }
    assert (
        "[typed by a person, 2026-03-03] Don't edit files under internal/gen" in (extracted["text"])
    )


def test_extract_lists_what_it_added_and_why_sessions_gave_nothing(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    _install(repo, hermetic_env)
    assert gm(["sessions", "sync"], cwd=repo.root).exit_code == 0
    run = gm(["extract", "--runner", "builtin", *WINDOW], cwd=repo.root)
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    added = [line for line in lines if line.startswith("  added ")]
    assert any(line.endswith(": Schema changes go through an alembic migration.") for line in added)
    assert len(added) == len([line for line in lines if " added " in line])
    (plan,) = [
        line for line in lines if line.startswith("  session ") and "nothing to keep" in line
    ]
    assert "no rule a person typed" in plan
    again = gm(["extract", "--runner", "builtin", *WINDOW, "--format", "json"], cwd=repo.root)
    # Read again (only chunks that hold a new memory are kept as extracted): nothing is new.
    assert again.json()["quarantined"] == []
    notes = {note["note"] for note in again.json()["sessionNotes"]}
    assert notes <= {NOTHING_NEW, NOTHING_FOUND}
    assert NOTHING_NEW in notes
