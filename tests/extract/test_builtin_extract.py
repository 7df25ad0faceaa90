"""`git memory extract --runner builtin`: one command extracts the window, with no model."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.extract.conftest import DAY1, SINCE, UNTIL, SampleRepo, build_sample_repo
from tests.extract.flow import candidate, decisions, draft_batch, stage
from tests.sessions.transcripts import (
    claude_assistant,
    claude_path,
    claude_user,
    tool_result,
    write_jsonl,
)

DAY = DAY1.isoformat()
SESSION_A = "11111111-2222-4333-8444-555555555555"
SESSION_B = "66666666-2222-4333-8444-555555555555"


@pytest.fixture
def sample_repo(tmp_path: Path, hermetic_env: dict[str, Path]) -> SampleRepo:
    """A repository whose two sample sessions are indexed and sealed."""
    return build_sample_repo(tmp_path, hermetic_env)


def _extract(sample_repo: SampleRepo, *extra: str) -> dict[str, Any]:
    result = run_cli(
        [
            "extract",
            "--runner",
            "builtin",
            "--since",
            SINCE,
            "--until",
            UNTIL,
            *extra,
            "--format",
            "json",
        ],
        cwd=sample_repo.root,
    )
    assert result.exit_code == 0, result.stderr + result.stdout
    document: dict[str, Any] = result.json()
    return document


def _review(sample_repo: SampleRepo) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = run_cli(
        ["review", "--format", "json"], cwd=sample_repo.root
    ).json()["items"]
    return items


def test_one_run_proposes_commands_traps_and_rules_ready_to_promote(
    sample_repo: SampleRepo, hermetic_env: dict[str, Path]
) -> None:
    before = sample_repo.repo.snapshot()
    outcome = _extract(sample_repo)
    assert len(outcome["extracted"]) == 2, "every pending task of the window in one run"
    assert outcome["next"].startswith("git memory review")
    statements = {
        i["statements"][0]["text"]: i["statements"][0]["claimSupport"] for i in _review(sample_repo)
    }
    assert statements["`uv run pytest` runs the tests (worked in 1 session)."] == "typed-fact"
    trap = (
        'Trap: `make integration` fails with "FAIL test_db_connect: connection refused on port '
        '5432" unless `docker compose up -d db` runs first.'
    )
    assert statements[trap] == "typed-fact"
    quoted = next(s for s in statements if s.startswith("From now on always use `uv run`"))
    assert (
        "Note for the team: don't run the integration tests without the db container." in statements
    )
    assert statements[quoted] == "unverified"
    assert not any(s.startswith("Commit ") or "The user said" in s for s in statements)
    confirmed = run_cli(
        ["review", "--confirm-typed-facts", "--format", "json"], cwd=sample_repo.root
    )
    assert confirmed.exit_code == 0, confirmed.stderr
    command = confirmed.stderr.split("apply it with: ")[1].splitlines()[0].split()
    promoted = run_cli([*command[2:], "--format", "json"], cwd=sample_repo.root)
    assert promoted.exit_code == 0, promoted.stderr
    left = _review(sample_repo)
    assert {i["statements"][0]["claimSupport"] for i in left} == {"unverified"}
    rule = next(i for i in left if i["statements"][0]["text"] == quoted)
    assert rule["content"] == "Always use `uv run` instead of calling python directly."
    entries = [p.read_text() for p in (sample_repo.root / ".memory" / "entries").glob("*.md")]
    assert any("`uv run pytest` runs the tests" in text for text in entries)
    assert any(text.count("Trap: `make integration`") for text in entries)
    assert sample_repo.repo.snapshot() == before
    # A later session that runs the same command again adds nothing: it is approved memory.
    cwd = str(sample_repo.root)
    call = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "uv run pytest"}}
    later = [claude_user("Run the tests.", cwd)]
    later += [claude_assistant([call], cwd, "m1"), tool_result("t1", "12 passed", cwd)]
    path = claude_path(hermetic_env["claude"], SESSION_A)
    write_jsonl(path, _at(later, SESSION_A), time.time() - 3600)
    again = _extract(sample_repo)
    assert again["sessions"] == 3, "the new session was read"
    assert again["quarantined"] == [], "nothing approved or proposed before comes back"
    assert not [i for i in _review(sample_repo) if "`uv run pytest` runs" in i["content"]]


def test_builtin_extract_is_idempotent_and_says_why_nothing_is_new(
    sample_repo: SampleRepo,
) -> None:
    first = _extract(sample_repo)
    again = _extract(sample_repo)
    assert first["quarantined"]
    assert again["quarantined"] == []
    assert again["extracted"] == []
    assert again["next"].startswith("git memory review"), "the first run's candidates still wait"


def test_limit_caps_the_run_and_next_says_what_is_left(sample_repo: SampleRepo) -> None:
    first = _extract(sample_repo, "--limit", "1")
    assert len(first["extracted"]) == 1
    assert first["remaining"] == 1
    second = _extract(sample_repo)
    assert len(second["extracted"]) == 1
    assert second["remaining"] == 0


def test_skipped_sessions_are_reported(sample_repo: SampleRepo) -> None:
    sample_repo.repo.git("config", "memory.minSessionTurns", "4")
    outcome = _extract(sample_repo)
    assert outcome["skipped"] == [
        {"reason": "fewer than 4 sealed turns (memory.minSessionTurns)", "sessions": 1}
    ]
    text = run_cli(
        ["extract", "--runner", "builtin", "--since", SINCE, "--until", UNTIL],
        cwd=sample_repo.root,
    )
    assert "skipped 1 session(s): fewer than 4 sealed turns" in text.stdout


def _at(records: list[dict[str, Any]], session: str) -> list[dict[str, Any]]:
    """Records of one session on the samples' first day."""
    for number, record in enumerate(records):
        record.update(sessionId=session, timestamp=f"{DAY}T10:00:{number:02d}.000Z")
    return records


def test_a_one_turn_session_counts_and_a_running_one_is_reported(
    sample_repo: SampleRepo, hermetic_env: dict[str, Path]
) -> None:
    cwd = str(sample_repo.root)
    call = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cargo test"}}
    one_turn = [claude_user("Run the tests.", cwd)]
    one_turn += [claude_assistant([call], cwd, "m1"), tool_result("t1", "57 passed", cwd)]
    idle = time.time() - 3600
    write_jsonl(claude_path(hermetic_env["claude"], SESSION_A), _at(one_turn, SESSION_A), idle)
    running = _at([claude_user("Build it.", cwd)], SESSION_B)
    write_jsonl(claude_path(hermetic_env["claude"], SESSION_B), running, time.time())
    outcome = _extract(sample_repo)
    assert outcome["sessions"] == 3, "both samples and the one-turn session"
    assert {"reason": "still active: no turn sealed yet", "sessions": 1} in outcome["skipped"]
    contents = [i["content"] for i in _review(sample_repo)]
    assert "`cargo test` runs the tests (worked in 1 session)." in contents


def test_nothing_in_the_window_says_so(sample_repo: SampleRepo) -> None:
    result = run_cli(
        [
            "extract",
            "--runner",
            "builtin",
            "--since",
            "2026-10-01",
            "--until",
            "2026-10-02",
            "--format",
            "json",
        ],
        cwd=sample_repo.root,
    )
    assert result.json()["next"].startswith("nothing to extract: no session of this worktree")


def test_a_staged_document_can_never_claim_typed_fact(
    sample_repo: SampleRepo, tmp_path: Path
) -> None:
    """Mutation test: a model writing text in the renderer's exact shape still gets
    `unverified` (only a statement the host itself rendered from the chunk, staged as it was
    handed out, is a typed fact: `test_builtin_marks.py`)."""
    task = sample_repo.recall("--providers", "claude")["tasks"][0]
    turn = task["chunk"]["turnEvidence"][0]["evidenceId"]
    text = "`uv run pytest` runs the tests (worked in 3 sessions)."
    batch = draft_batch(task, [candidate(text, [(text, [turn])])])
    batch["candidates"][0]["statements"][0]["claimSupport"] = "typed-fact"
    refused = stage(sample_repo.root, batch, tmp_path)
    assert refused.json()["error"]["code"] == "GM_REQUEST_INVALID"
    del batch["candidates"][0]["statements"][0]["claimSupport"]
    staged = stage(sample_repo.root, batch, tmp_path).json()
    assert _review(sample_repo) == []
    assert staged["status"] == "adjudication-required"
    stage(sample_repo.root, decisions(staged["adjudicationTask"]), tmp_path)
    items = _review(sample_repo)
    assert items[0]["statements"][0]["claimSupport"] == "unverified"
