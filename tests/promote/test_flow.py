"""prepare → promote end to end through the CLI, with git left untouched after every step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.promote.helpers import Statement, candidate_state, prepare_request, seed_candidate
from tests.repos import Repo


def _prepare(gm: Any, repo: Repo, request: dict[str, Any], tmp_path: Path) -> Any:
    path = tmp_path / "prepare.json"
    path.write_text(json.dumps(request))
    return gm(["prepare", "--request", str(path), "--format", "json"], cwd=repo.root)


def test_prepare_then_promote(gm: Any, repo: Repo, tmp_path: Path) -> None:
    repo.git("remote", "add", "origin", "https://example.com/team/app.git")
    head = repo.git("rev-parse", "HEAD").strip()
    before = repo.snapshot()
    item = seed_candidate(
        repo.root,
        "cand-1",
        "Run make check before pushing",
        [
            Statement(
                "s1",
                "make check runs lint and tests",
                evidence=[
                    {"kind": "commit", "commitHash": head},
                    {"kind": "path", "path": "Makefile"},
                    {"kind": "turn", "turnIndex": 3, "started": "2026-05-04T10:00:00.000Z"},
                ],
            )
        ],
    )
    prepared = _prepare(gm, repo, prepare_request(item), tmp_path)
    assert prepared.exit_code == 0, prepared.stderr
    plan = prepared.json()
    assert repo.snapshot() == before
    target = ".memory/entries/run-make-check-before-pushing.md"
    assert [f["targetPath"] for f in plan["perFile"]] == [target]
    assert plan["perFile"][0]["targetBlobHash"] is None
    assert f"+++ b/{target}" in plan["diff"]
    assert not (repo.root / target).exists()

    wrong = gm(["promote", "--plan", plan["planId"], "--approve", "0" * 64], cwd=repo.root)
    assert wrong.exit_code == 1
    assert "GM_APPROVAL_MISMATCH" in wrong.stderr
    assert not (repo.root / target).exists()

    applied = gm(
        ["promote", "--plan", plan["planId"], "--approve", plan["planDigest"], "--format", "json"],
        cwd=repo.root,
    )
    assert applied.exit_code == 0, applied.stderr
    assert applied.json()["replayed"] is False
    assert repo.snapshot() == before
    text = (repo.root / target).read_text()
    assert f'"hash": "{head}"' in text or head in text
    assert "example.com/team/app" in text
    assert "Makefile" in text
    assert 'occurred: ["2026-05-04"]' in text
    assert "claim_support: human-confirmed" in text
    assert candidate_state(repo.root, "cand-1") == ("promoted", 2)
    index = json.loads((repo.root / ".memory/index.json").read_text())
    assert [e["id"] for e in index["entries"]] == ["run-make-check-before-pushing"]

    again = gm(
        ["promote", "--plan", plan["planId"], "--approve", plan["planDigest"], "--format", "json"],
        cwd=repo.root,
    )
    assert again.exit_code == 0, again.stderr
    assert again.json()["replayed"] is True
    assert candidate_state(repo.root, "cand-1") == ("promoted", 2)
    status = gm(["status", "--format", "json"], cwd=repo.root)
    assert status.exit_code == 0, status.stderr
    assert status.json()["counts"]["promotions"]["applied"] == 1
    assert repo.snapshot() == before


def test_promote_names_every_file_it_wrote_and_which_are_new(gm: Any, repo: Repo) -> None:
    from tests.promote.scenario import NEW_PATH, OLD_PATH, build

    scenario = build(repo)
    applied = gm(scenario.promote_args(), cwd=repo.root)
    assert applied.exit_code == 0, applied.stderr
    lines = applied.stdout.splitlines()
    assert f"  {NEW_PATH} (new)" in lines
    assert f"  {OLD_PATH} (changed)" in lines
    assert "  .memory/index.json (regenerated)" in lines
    next_steps = applied.stdout.split("next:\n", 1)[1].splitlines()
    assert next_steps[0].split()[:2] == ["git", "status"]
    assert "untracked, so `git diff` alone misses them" in next_steps[0]
    assert "git memory assemble  " in next_steps[1], "what updates the agents' files"


def test_promote_of_changed_files_only_does_not_speak_of_new_ones(
    gm: Any, repo: Repo, tmp_path: Path
) -> None:
    from tests.promote.scenario import OLD_BYTES, OLD_PATH

    repo.write(OLD_PATH, OLD_BYTES.decode())
    update = seed_candidate(
        repo.root, "cand-upd", "The new text", action="update", targetEntryIds=["old-entry"]
    )
    plan = _prepare(gm, repo, prepare_request(update), tmp_path).json()
    applied = gm(["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]],
                 cwd=repo.root)  # fmt: skip
    assert applied.exit_code == 0, applied.stderr
    assert f"  {OLD_PATH} (changed)" in applied.stdout.splitlines()
    assert "untracked" not in applied.stdout
    assert applied.stdout.split("next:\n", 1)[1].split()[:4] == ["git", "diff", "see", "the"]
