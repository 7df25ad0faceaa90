"""Attacks on promotion: symlinks, hostile plan paths, drift, races, other worktrees, tampering."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from git_memory.contracts.canonical import canonical_json, digest
from git_memory.errors import GitMemoryError
from git_memory.promote.apply import promotion_lock
from git_memory.repo.binding import discover_worktree
from tests.conftest import PROJECT_ROOT
from tests.promote.helpers import candidate_state
from tests.promote.scenario import NEW_PATH, OLD_BYTES, OLD_PATH, build
from tests.repos import Repo


def _code(result: Any) -> str:
    assert result.exit_code == 1, (result.stdout, result.stderr)
    return result.stderr.split("[", 1)[1].split("]", 1)[0]


def _plan_status(root: Path, plan_id: str) -> tuple[str, str | None]:
    db = sqlite3.connect(discover_worktree(root).state_home / "memory-state.sqlite3")
    try:
        row = db.execute(
            "SELECT status, void_reason FROM promotion_journal WHERE plan_id = ?", (plan_id,)
        ).fetchone()
    finally:
        db.close()
    return row[0], row[1]


@pytest.mark.parametrize("link", [".memory", ".memory/entries"])
def test_symlinked_directory_voids_the_plan(gm: Any, repo: Repo, tmp_path: Path, link: str) -> None:
    scenario = build(repo)
    before = repo.snapshot()
    outside = tmp_path / "outside"
    shutil.move(str(repo.root / link), outside)
    (repo.root / link).symlink_to(outside)
    assert _code(gm(scenario.promote_args(), cwd=repo.root)) == "GM_SYMLINK_REFUSED"
    assert _plan_status(repo.root, scenario.plan_id)[0] == "voided"
    assert not list(outside.rglob("alpha-*"))
    assert sorted(p.name for p in outside.rglob("*.md")) == ["old-entry.md"]
    assert repo.snapshot() == before


def test_symlinked_target_file_is_refused(gm: Any, repo: Repo, tmp_path: Path) -> None:
    scenario = build(repo)
    victim = tmp_path / "victim.md"
    victim.write_bytes(OLD_BYTES)
    (repo.root / OLD_PATH).unlink()
    (repo.root / OLD_PATH).symlink_to(victim)
    assert _code(gm(scenario.promote_args(), cwd=repo.root)) == "GM_SYMLINK_REFUSED"
    assert victim.read_bytes() == OLD_BYTES
    assert not (repo.root / NEW_PATH).exists()


def test_symlinked_memory_root_is_refused_at_prepare(gm: Any, repo: Repo, tmp_path: Path) -> None:
    from tests.promote.helpers import prepare_request, seed_candidate
    from tests.promote.scenario import prepare

    outside = tmp_path / "elsewhere"
    (outside / "entries").mkdir(parents=True)
    (repo.root / ".memory").symlink_to(outside)
    item = seed_candidate(repo.root, "c1", "Some fact")
    with pytest.raises(GitMemoryError) as caught:
        prepare(repo, prepare_request(item))
    assert caught.value.code == "GM_SYMLINK_REFUSED"
    assert candidate_state(repo.root, "c1") == ("quarantined", 1)


def _rewrite_plan(root: Path, plan_id: str, mutate: Any) -> None:
    """Rewrite the stored plan document and keep its digest consistent (a capable attacker)."""
    path = discover_worktree(root).state_home / "memory-state.sqlite3"
    db = sqlite3.connect(path)
    try:
        (text,) = db.execute(
            "SELECT plan_canonical_json FROM promotion_journal WHERE plan_id = ?", (plan_id,)
        ).fetchone()
        document = json.loads(text)
        old_path = document["perFile"][0]["targetPath"]
        mutate(document)
        new_path = document["perFile"][0]["targetPath"]
        binding = {k: document["owner"][k] for k in ("repositoryKey", "worktreeKey", "memoryRoot")}
        subset = {
            k: document[k]
            for k in (
                "format",
                "planId",
                "candidateIds",
                "policyVersion",
                "assessmentDigest",
                "perFile",
            )
        }
        new_digest = digest({**subset, "owner": binding})
        db.execute(
            "UPDATE promotion_journal SET plan_canonical_json = ?, plan_digest = ?"
            " WHERE plan_id = ?",
            (canonical_json(document).decode(), new_digest, plan_id),
        )
        db.execute(
            "UPDATE promotion_files SET target_path = ? WHERE plan_id = ? AND target_path = ?",
            (new_path, plan_id, old_path),
        )
        db.commit()
    finally:
        db.close()


@pytest.mark.parametrize(
    "hostile", ["../outside.md", "/tmp/absolute.md", ".memory/../../outside.md", "README.md"]
)
def test_hostile_plan_paths_are_refused(gm: Any, repo: Repo, hostile: str) -> None:
    scenario = build(repo)

    def mutate(document: dict[str, Any]) -> None:
        document["perFile"][0]["targetPath"] = hostile

    _rewrite_plan(repo.root, scenario.plan_id, mutate)
    result = gm(["promote", "--plan", scenario.plan_id], cwd=repo.root)
    assert _code(result) == "GM_PLAN_TAMPERED"
    assert not (repo.root.parent / "outside.md").exists()
    assert (repo.root / "README.md").read_text() == "# sample\n"


def test_tampered_bytes_in_the_private_store(gm: Any, repo: Repo) -> None:
    scenario = build(repo)
    db = sqlite3.connect(discover_worktree(repo.root).state_home / "memory-state.sqlite3")
    db.execute(
        "UPDATE promotion_files SET sanitized_content = ? WHERE plan_id = ? AND target_path = ?",
        (b"---\nid: evil\n---\nrm -rf /\n", scenario.plan_id, NEW_PATH),
    )
    db.commit()
    db.close()
    assert _code(gm(scenario.promote_args(), cwd=repo.root)) == "GM_PLAN_TAMPERED"
    assert not (repo.root / NEW_PATH).exists()
    assert candidate_state(repo.root, "cand-new") == ("quarantined", 1)


def test_target_created_after_prepare(gm: Any, repo: Repo) -> None:
    scenario = build(repo)
    (repo.root / NEW_PATH).write_text("theirs\n")
    result = gm([*scenario.promote_args(), "--format", "json"], cwd=repo.root)
    assert _code(result) == "GM_PLAN_DRIFT"
    assert json.loads(result.stdout)["error"]["details"]["driftedPath"] == NEW_PATH
    assert (repo.root / NEW_PATH).read_text() == "theirs\n"
    assert (repo.root / OLD_PATH).read_bytes() == OLD_BYTES
    status, reason = _plan_status(repo.root, scenario.plan_id)
    assert status == "voided"
    assert NEW_PATH in (reason or "")


def test_target_edited_after_prepare(gm: Any, repo: Repo) -> None:
    scenario = build(repo)
    (repo.root / OLD_PATH).write_bytes(OLD_BYTES + b"more\n")
    assert _code(gm(scenario.promote_args(), cwd=repo.root)) == "GM_PLAN_DRIFT"
    assert not (repo.root / NEW_PATH).exists()
    assert _code(gm(scenario.promote_args(), cwd=repo.root)) == "GM_PLAN_VOIDED"


def test_a_second_process_promoting_the_same_plan(repo: Repo) -> None:
    scenario = build(repo)
    full = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "git_memory", *scenario.promote_args()],
            cwd=repo.root,
            env=full,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outcomes = [(p.wait(timeout=60), p.stderr.read() if p.stderr else "") for p in procs]
    assert any(code == 0 for code, _ in outcomes), outcomes
    for code, err in outcomes:
        assert code == 0 or "GM_PROMOTION_BUSY" in err, outcomes
    assert scenario.current() == scenario.planned
    assert candidate_state(repo.root, "cand-new") == ("promoted", 2)
    assert scenario.artifacts() == []


def test_lock_held_elsewhere_fails_closed(gm: Any, repo: Repo) -> None:
    scenario = build(repo)
    with promotion_lock(discover_worktree(repo.root).state_home) as acquired:
        assert acquired
        assert _code(gm(scenario.promote_args(), cwd=repo.root)) == "GM_PROMOTION_BUSY"
    assert not (repo.root / NEW_PATH).exists()
    assert gm(scenario.promote_args(), cwd=repo.root).exit_code == 0


def test_another_worktree_cannot_apply_the_plan(gm: Any, repo: Repo, tmp_path: Path) -> None:
    scenario = build(repo)
    repo.commit_all("memory files")
    other = repo.add_worktree(tmp_path / "other", "other-branch")
    before = repo.snapshot()
    result = gm(scenario.promote_args(), cwd=other.root)
    assert _code(result) == "GM_PLAN_OWNER_MISMATCH"
    assert not (other.root / NEW_PATH).exists()
    assert _plan_status(repo.root, scenario.plan_id)[0] == "generated"
    assert gm(scenario.promote_args(), cwd=repo.root).exit_code == 0
    assert scenario.current() == scenario.planned
    assert repo.snapshot() == before


def test_a_forged_stored_diff_is_not_what_the_human_sees(repo: Repo) -> None:
    """The diff is not digest-bound, so the question shows one recomputed from the bytes."""
    from git_memory.ops.base import OpContext, load_operation

    scenario = build(repo)
    state = discover_worktree(repo.root).state_home / "memory-state.sqlite3"
    db = sqlite3.connect(state)
    (text,) = db.execute(
        "SELECT plan_canonical_json FROM promotion_journal WHERE plan_id = ?", (scenario.plan_id,)
    ).fetchone()
    document = json.loads(text)
    document["diff"] = "+harmless change\n"
    db.execute(
        "UPDATE promotion_journal SET plan_canonical_json = ? WHERE plan_id = ?",
        (canonical_json(document).decode(), scenario.plan_id),
    )
    db.commit()
    db.close()
    shown: list[str] = []

    def ask(summary: str, diff: str) -> bool:
        shown.append(diff)
        return False

    context = OpContext(repository=repo.root, confirm=ask, via="elicitation")
    with pytest.raises(GitMemoryError):
        load_operation("promote").invoke(context, {"plan": scenario.plan_id})
    assert "harmless" not in shown[0]
    assert "+The new text" in shown[0]


def test_a_changed_memory_root_refuses_the_plan(gm: Any, repo: Repo) -> None:
    scenario = build(repo)
    repo.git("config", "memory.root", "elsewhere")
    assert _code(gm(scenario.promote_args(), cwd=repo.root)) == "GM_PLAN_OWNER_MISMATCH"
    assert _plan_status(repo.root, scenario.plan_id)[0] == "generated"
    repo.git("config", "--unset", "memory.root")
    assert gm(scenario.promote_args(), cwd=repo.root).exit_code == 0
