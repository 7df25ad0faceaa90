"""`git memory extract --runner builtin`: typed facts ready to promote, with no model."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.extract.conftest import SINCE, UNTIL, SampleRepo, build_sample_repo
from tests.extract.flow import candidate, decisions, draft_batch, stage


@pytest.fixture
def sample_repo(tmp_path: Path, hermetic_env: dict[str, Path]) -> SampleRepo:
    """A repository whose two sample sessions are indexed and sealed."""
    return build_sample_repo(tmp_path, hermetic_env)


def _extract(sample_repo: SampleRepo) -> dict[str, object]:
    result = run_cli(
        [
            "extract",
            "--runner",
            "builtin",
            "--since",
            SINCE,
            "--until",
            UNTIL,
            "--limit",
            "8",
            "--format",
            "json",
        ],
        cwd=sample_repo.root,
    )
    assert result.exit_code == 0, result.stderr + result.stdout
    document: dict[str, object] = result.json()
    return document


def test_passing_test_command_becomes_a_promotable_typed_fact(sample_repo: SampleRepo) -> None:
    before = sample_repo.repo.snapshot()
    outcome = _extract(sample_repo)
    assert outcome["quarantined"]
    review = run_cli(["review", "--format", "json"], cwd=sample_repo.root).json()
    texts = {
        item["statements"][0]["text"]: item["statements"][0]["claimSupport"]
        for item in review["items"]
    }
    test_fact = "The test command `uv run pytest -q` succeeded (exit 0) in this repository."
    assert texts[test_fact] == "typed-fact"
    rule = next(t for t in texts if t.startswith('The user said: "always use `uv run`'))
    assert texts[rule] == "unverified"
    assert not any("ruff check ." in t and "failed" in t for t in texts)
    confirmed = run_cli(
        ["review", "--confirm-typed-facts", "--format", "json"], cwd=sample_repo.root
    )
    assert confirmed.exit_code == 0, confirmed.stderr
    typed = sum(1 for support in texts.values() if support == "typed-fact")
    assert f"for {typed} entry candidate(s)" in confirmed.stderr
    command = confirmed.stderr.split("apply it with: ")[1].splitlines()[0].split()
    assert command[:4] == ["git", "memory", "promote", "--plan"]
    promoted = run_cli([*command[2:], "--format", "json"], cwd=sample_repo.root)
    assert promoted.exit_code == 0, promoted.stderr
    left = run_cli(["review", "--format", "json"], cwd=sample_repo.root).json()["items"]
    assert {i["statements"][0]["claimSupport"] for i in left} == {"unverified"}
    entries = list((sample_repo.root / ".memory" / "entries").glob("*.md"))
    assert any("uv run pytest -q" in p.read_text() for p in entries)
    assert sample_repo.repo.snapshot() == before


def test_builtin_extract_is_idempotent(sample_repo: SampleRepo) -> None:
    first = _extract(sample_repo)
    again = _extract(sample_repo)
    assert first["quarantined"]
    assert again["quarantined"] == [], "staged chunks are not extracted twice"


def test_a_staged_document_can_never_claim_typed_fact(
    sample_repo: SampleRepo, tmp_path: Path
) -> None:
    """Mutation test: a model writing the renderer's exact text still gets `unverified`."""
    task = sample_repo.recall("--providers", "claude")["tasks"][0]
    turn = task["chunk"]["turnEvidence"][0]["evidenceId"]
    text = "The test command `uv run pytest -q` succeeded (exit 0) in this repository."
    batch = draft_batch(task, [candidate(text, [(text, [turn])])])
    batch["candidates"][0]["statements"][0]["claimSupport"] = "typed-fact"
    refused = stage(sample_repo.root, batch, tmp_path)
    assert refused.json()["error"]["code"] == "GM_REQUEST_INVALID"
    del batch["candidates"][0]["statements"][0]["claimSupport"]
    staged = stage(sample_repo.root, batch, tmp_path).json()
    review = run_cli(["review", "--format", "json"], cwd=sample_repo.root).json()
    assert review["items"] == []
    assert staged["status"] == "adjudication-required"
    stage(sample_repo.root, decisions(staged["adjudicationTask"]), tmp_path)
    items = run_cli(["review", "--format", "json"], cwd=sample_repo.root).json()["items"]
    assert items[0]["statements"][0]["claimSupport"] == "unverified"
