"""The hard promises of the README, each tested by name, end to end through the real CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from git_memory.formats.entry import Entry, serialize_entry
from tests.conftest import run_cli
from tests.extract.conftest import SINCE, UNTIL, SampleRepo, build_sample_repo
from tests.extract.flow import candidate, decisions, draft_batch, stage
from tests.runners.conftest import fake_runner, spawn_count

__all__ = ["fake_runner"]  # the fixture, imported for these tests


@pytest.fixture
def sample_repo(tmp_path: Path, hermetic_env: dict[str, Path]) -> SampleRepo:
    """A repository whose two sample sessions are indexed and sealed."""
    return build_sample_repo(tmp_path, hermetic_env)


def _json(args: list[str], root: Path) -> Any:
    result = run_cli([*args, "--format", "json"], cwd=root)
    return result.exit_code, result.json() if result.stdout.strip() else {}


def test_nothing_leaves_the_machine_without_an_approved_plan(
    sample_repo: SampleRepo, fake_runner: Callable[[str], Path]
) -> None:
    script = fake_runner("extraction")
    base = [
        "extract",
        "--runner",
        "command",
        "--runner-command",
        str(script),
        "--since",
        SINCE,
        "--until",
        UNTIL,
    ]
    code, pending = _json(base, sample_repo.root)
    assert code == 1
    assert pending["error"]["code"] == "GM_APPROVAL_REQUIRED"
    assert spawn_count(script) == 0, "not even --version before an approval"
    (plan,) = pending["error"]["details"]["plans"]
    code, wrong = _json([*base, "--approve-plan", "0" * 64], sample_repo.root)
    assert code == 1
    assert wrong["error"]["code"] == "GM_RUNNER_APPROVAL_MISMATCH"
    assert spawn_count(script) == 0
    code, done = _json([*base, "--approve-plan", plan["planDigest"]], sample_repo.root)
    assert code in (0, 1), done
    assert spawn_count(script) > 0, "the approved plan was delivered"
    # the builtin runner sends nothing anywhere: it needs no plan at all
    code, builtin = _json(
        ["extract", "--runner", "builtin", "--since", SINCE, "--until", UNTIL, "--limit", "8"],
        sample_repo.root,
    )
    assert code == 0
    assert builtin["plans"] == []


def test_nothing_reaches_the_repository_without_an_approved_promotion_plan(
    sample_repo: SampleRepo,
) -> None:
    assert run_cli(["init"], cwd=sample_repo.root).exit_code == 0
    memory = sample_repo.root / ".memory"
    before = sorted(p.relative_to(memory) for p in memory.rglob("*"))
    assert (
        _json(
            ["extract", "--runner", "builtin", "--since", SINCE, "--until", UNTIL, "--limit", "8"],
            sample_repo.root,
        )[0]
        == 0
    )
    _, review = _json(["review"], sample_repo.root)
    from tests.review_helpers import prepare_document

    request = sample_repo.root.parent / "prepare.json"
    request.write_text(json.dumps(prepare_document(review["items"])))
    code, plan = _json(["prepare", "--request", str(request)], sample_repo.root)
    assert code == 0, plan
    assert sorted(p.relative_to(memory) for p in memory.rglob("*")) == before, (
        "recall, stage, review and prepare write nothing into the worktree"
    )
    code, refused = _json(
        ["promote", "--plan", plan["planId"], "--approve", "f" * 64], sample_repo.root
    )
    assert code == 1
    assert refused["error"]["code"] == "GM_APPROVAL_MISMATCH"
    assert sorted(p.relative_to(memory) for p in memory.rglob("*")) == before
    code, applied = _json(
        ["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]], sample_repo.root
    )
    assert code == 0, applied
    assert len(list((memory / "entries").glob("*.md"))) == len(review["items"])


def test_head_refs_and_index_never_change(
    sample_repo: SampleRepo, bin_dir: Path, tmp_path: Path
) -> None:
    repo = sample_repo.repo
    repo.write("notes.txt", "staged but not committed\n")
    repo.git("add", "notes.txt")
    snapshot = repo.snapshot()
    steps: list[list[str]] = [
        ["init"],
        ["hooks", "install"],
        ["sessions", "sync"],
        ["status"],
        ["recall", "--since", SINCE, "--until", UNTIL, "--limit", "8"],
        ["extract", "--runner", "builtin", "--since", SINCE, "--until", UNTIL, "--limit", "8"],
        ["review", "--confirm-typed-facts"],
        ["search", "uv run pytest"],
        ["reindex"],
        ["lint"],
        ["fmt", "--check"],
        ["assemble", "--provider", "claude"],
        ["assemble", "--provider", "codex"],
        ["doctor"],
        ["hooks", "status"],
    ]
    for args in steps:
        result = run_cli(args, cwd=repo.root)
        assert result.exit_code in (0, 1), (args, result.stderr)
        assert repo.snapshot() == snapshot, f"`git memory {' '.join(args)}` changed git state"
    plan_line = next(
        (
            line
            for line in run_cli(["status"], cwd=repo.root).stdout.splitlines()
            if "promotion" in line
        ),
        "",
    )
    assert plan_line, "status reports promotions"
    assert repo.snapshot() == snapshot


SECRET = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa98"


@pytest.mark.parametrize(
    "leak",
    [
        f"Use the token {SECRET} for deploys.",
        "The transcript lives in ~/.claude/projects/-srv-app/"
        "0b1c2d3e-4f50-4a6b-8c9d-0e1f2a3b4c5d.jsonl",
        "Build output goes to /home/alice/work/app/build.",
        "HOME-PATH",
    ],
    ids=["secret", "session-path", "home-path", "this-machines-home"],
)
def test_no_secret_session_id_or_home_path_reaches_a_committed_file(
    sample_repo: SampleRepo, tmp_path: Path, leak: str
) -> None:
    if leak == "HOME-PATH":
        leak = f"Caches live under {Path.home()}/.cache/app."
    task = sample_repo.recall("--providers", "claude")["tasks"][0]
    turn = task["chunk"]["turnEvidence"][0]["evidenceId"]
    staged = stage(
        sample_repo.root, draft_batch(task, [candidate(leak, [(leak, [turn])])]), tmp_path
    ).json()
    stage(sample_repo.root, decisions(staged["adjudicationTask"]), tmp_path)
    _, review = _json(["review"], sample_repo.root)
    from tests.review_helpers import prepare_document

    request = tmp_path / "prepare.json"
    request.write_text(json.dumps(prepare_document(review["items"])))
    code, refused = _json(["prepare", "--request", str(request)], sample_repo.root)
    if leak.startswith(("Build output goes to", "Caches live under")):
        # A home path is rewritten as `~` before review shows the draft (issue 39): what is
        # prepared names no home at all.
        (item,) = review["items"]
        assert "~/" in item["content"]
        assert "/home/alice" not in json.dumps(refused)
        assert str(Path.home()) not in json.dumps(refused)
    else:
        assert code == 1
        assert refused["error"]["code"] == "GM_LINT_BLOCKED"
    assert not (sample_repo.root / ".memory" / "entries").exists() or not list(
        (sample_repo.root / ".memory" / "entries").glob("*.md")
    )
    # the committed-file check of the hook blocks the same bytes written by hand
    assert run_cli(["init"], cwd=sample_repo.root).exit_code == 0
    entry = sample_repo.root / ".memory" / "entries" / "by-hand.md"
    entry.write_text(serialize_entry(Entry(id="by-hand", body=leak + "\n")))
    sample_repo.repo.git("add", "-A")
    lint = run_cli(["lint", "--staged"], cwd=sample_repo.root)
    assert "GM_LINT_" in lint.stdout


def test_bad_input_gives_a_clear_error_and_loses_nothing(
    sample_repo: SampleRepo, tmp_path: Path
) -> None:
    # a malformed line in a transcript is a diagnostic; the rest of the file still indexes
    with open(sample_repo.samples.claude, "a", encoding="utf-8") as handle:
        handle.write("{not json\n")
    code, synced = _json(["sessions", "sync"], sample_repo.root)
    assert code == 0
    assert synced["diagnostics"] >= 1
    # hostile documents are refused with a GM_ code and change no state
    task = sample_repo.recall("--providers", "claude")["tasks"][0]
    for document in (
        {"format": "git-memory-candidate-draft-batch@v1", "taskId": task["taskId"]},
        {"format": "nonsense"},
        ["not", "an", "object"],
    ):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(document))
        code, refused = _json(["stage", "--request", str(path)], sample_repo.root)
        assert code == 2, "an invalid request document is a usage error"
        assert refused["error"]["code"].startswith("GM_")
    _, review = _json(["review"], sample_repo.root)
    assert review["items"] == []
    # the task is still there to answer properly
    assert sample_repo.recall("--providers", "claude")["tasks"][0]["taskId"] == task["taskId"]
