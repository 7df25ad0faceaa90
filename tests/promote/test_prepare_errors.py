"""Every refusal of prepare and promote, each with nothing changed."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from git_memory.errors import GitMemoryError
from git_memory.ops.base import OpContext, load_operation, run
from git_memory.promote.plan import PlannedFile, check_sizes
from git_memory.repo.binding import discover_worktree
from git_memory.store import candidates as store
from git_memory.store.db import open_state
from tests.promote.helpers import (
    Statement,
    candidate_state,
    owner_of,
    prepare_request,
    seed_candidate,
)
from tests.promote.scenario import NEW_PATH, build
from tests.repos import Repo


def _refused(repo: Repo, request: dict[str, Any]) -> GitMemoryError:
    with pytest.raises(GitMemoryError) as caught:
        run("prepare", request, repository=repo.root)
    return caught.value


def _plans(repo: Repo) -> int:
    db = sqlite3.connect(discover_worktree(repo.root).state_home / "memory-state.sqlite3")
    try:
        return int(db.execute("SELECT COUNT(*) FROM promotion_journal").fetchone()[0])
    finally:
        db.close()


def _supports(repo: Repo, candidate_id: str) -> list[str]:
    with open_state(discover_worktree(repo.root).state_home) as db:
        return [a.claim_support for a in store.assessments(db, candidate_id)]


@pytest.mark.parametrize("field", ["statementTextDigest", "citationsDigest"])
def test_changed_digest_is_confirmation_drift(repo: Repo, field: str) -> None:
    item = seed_candidate(repo.root, "c1", "A fact", [Statement("s1", "t1"), Statement("s2", "t2")])
    item["statements"][1][field] = "f" * 64
    error = _refused(repo, prepare_request(item))
    assert error.code == "GM_CONFIRMATION_DRIFT"
    assert error.details == {"candidateId": "c1", "statementId": "s2"}
    assert _plans(repo) == 0
    assert _supports(repo, "c1") == ["unverified", "unverified"]


def test_incomplete_statement_set_is_confirmation_drift(repo: Repo) -> None:
    item = seed_candidate(repo.root, "c1", "A fact", [Statement("s1", "t1"), Statement("s2", "t2")])
    item["statements"] = item["statements"][:1]
    error = _refused(repo, prepare_request(item))
    assert error.code == "GM_CONFIRMATION_DRIFT"
    assert error.details is not None
    assert error.details["missing"] == ["s2"]
    assert _plans(repo) == 0


def test_expected_revision_must_match(repo: Repo) -> None:
    item = seed_candidate(repo.root, "c1", "A fact")
    item["expectedRevision"] = 7
    assert _refused(repo, prepare_request(item)).code == "GM_REVISION_CONFLICT"


def test_only_quarantined_candidates(repo: Repo) -> None:
    item = seed_candidate(repo.root, "c1", "A fact")
    with open_state(discover_worktree(repo.root).state_home) as db:
        store.discard(db, "c1", expected_revision=1)
    item["expectedRevision"] = 2
    assert _refused(repo, prepare_request(item)).code == "GM_CANDIDATE_STATE_INVALID"
    other = {**item, "candidateId": "nobody"}
    assert _refused(repo, prepare_request(other)).code == "GM_CANDIDATE_NOT_FOUND"


def test_secret_in_a_statement_blocks_the_plan(repo: Repo) -> None:
    secret = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
    item = seed_candidate(repo.root, "c1", f"Use token {secret} for the registry")
    error = _refused(repo, prepare_request(item))
    assert error.code == "GM_LINT_BLOCKED"
    assert secret not in str(error.details)
    assert _plans(repo) == 0
    assert _supports(repo, "c1") == ["unverified"]
    assert not (repo.root / ".memory").exists()


def test_other_kinds_are_refused(repo: Repo) -> None:
    item = seed_candidate(repo.root, "c1", "A fact")
    request = {**prepare_request(item), "kind": "skill"}
    assert _refused(repo, request).code == "GM_PREPARE_KIND_UNSUPPORTED"


def test_plan_size_limits() -> None:
    with pytest.raises(GitMemoryError) as caught:
        check_sizes([PlannedFile(".memory/entries/a.md", None, b"x" * (1024 * 1024 + 1))])
    assert caught.value.code == "GM_PLAN_TOO_LARGE"
    with pytest.raises(GitMemoryError):
        check_sizes([])


def test_promote_needs_an_approval(gm: Any, repo: Repo) -> None:
    scenario = build(repo)
    result = gm(["promote", "--plan", scenario.plan_id], cwd=repo.root)
    assert result.exit_code == 1
    assert "GM_APPROVAL_REQUIRED" in result.stderr
    assert scenario.plan_digest in result.stderr  # the hint names the digest to approve
    missing = gm(["promote", "--plan", "plan-nope"], cwd=repo.root)
    assert "GM_PLAN_NOT_FOUND" in missing.stderr


def _promote(repo: Repo, plan_id: str, **ctx: Any) -> Any:
    context = OpContext(repository=repo.root, **ctx)
    return load_operation("promote").invoke(context, {"plan": plan_id})


def _authorizations(repo: Repo) -> list[str]:
    db = sqlite3.connect(discover_worktree(repo.root).state_home / "memory-state.sqlite3")
    try:
        return [r[0] for r in db.execute("SELECT via FROM authorization_log ORDER BY id")]
    finally:
        db.close()


def test_elicitation_decides(repo: Repo) -> None:
    scenario = build(repo)
    shown: list[str] = []

    def decline(summary: str, diff: str) -> bool:
        shown.append(diff)
        return False

    with pytest.raises(GitMemoryError) as caught:
        _promote(repo, scenario.plan_id, confirm=decline, via="elicitation")
    assert caught.value.code == "GM_APPROVAL_DECLINED"
    assert f"+++ b/{NEW_PATH}" in shown[0]
    assert not (repo.root / NEW_PATH).exists()
    result = _promote(repo, scenario.plan_id, confirm=lambda s, d: True, via="elicitation")
    assert result.approved_via == "elicitation"
    assert _authorizations(repo) == ["elicitation"]
    assert scenario.current() == scenario.planned


def test_terminal_prompt(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = build(repo)
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    context = OpContext.at_terminal(repo.root)
    result = load_operation("promote").invoke(context, {"plan": scenario.plan_id})
    assert result.approved_via == "interactive"
    assert scenario.current() == scenario.planned


def _at_a_terminal(args: list[str], cwd: Path, answer: bytes) -> tuple[int, str]:
    """Run the CLI with stdin, stdout and stderr on a pseudo-terminal; type `answer`."""
    import os
    import pty
    import subprocess
    import sys

    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "git_memory", *args],
        cwd=cwd,
        stdin=follower,
        stdout=follower,
        stderr=follower,
    )
    os.close(follower)
    os.write(leader, answer)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    return proc.wait(timeout=120), seen.decode("utf-8", "replace")


def test_the_cli_at_a_terminal_asks_after_showing_the_diff(repo: Repo) -> None:
    scenario = build(repo)
    declined, shown = _at_a_terminal(["promote", "--plan", scenario.plan_id], repo.root, b"n\n")
    assert declined == 1
    assert "GM_APPROVAL_DECLINED" in shown
    assert shown.index(f"+++ b/{NEW_PATH}") < shown.index("[y/N]")
    assert not (repo.root / NEW_PATH).exists()
    agreed, _ = _at_a_terminal(["promote", "--plan", scenario.plan_id], repo.root, b"y\n")
    assert agreed == 0
    assert scenario.current() == scenario.planned
    assert _authorizations(repo) == ["interactive"]


def test_plan_goes_stale_when_a_candidate_changes(gm: Any, repo: Repo) -> None:
    scenario = build(repo)
    with open_state(discover_worktree(repo.root).state_home) as db:
        store.discard(db, "cand-upd", expected_revision=1)
    result = gm(scenario.promote_args(), cwd=repo.root)
    assert "GM_PLAN_STALE" in result.stderr
    assert not (repo.root / NEW_PATH).exists()
    assert candidate_state(repo.root, "cand-new") == ("quarantined", 1)
    assert owner_of(repo.root) is not None


def test_unwritable_target_dir_fails_cleanly(repo: Repo, tmp_path: Path) -> None:
    """A directory where an entry file should go: refused, nothing else written."""
    scenario = build(repo)
    (repo.root / NEW_PATH).mkdir()
    with pytest.raises(GitMemoryError) as caught:
        _promote(repo, scenario.plan_id, confirm=lambda s, d: True)
    assert caught.value.code == "GM_NOT_A_FILE"
    assert scenario.artifacts() == []


def test_agent_digest_approval_is_logged_as_agent(repo: Repo) -> None:
    scenario = build(repo)
    context = OpContext(repository=repo.root, front_end="mcp")
    request = {"plan": scenario.plan_id, "approve": scenario.plan_digest}
    result = load_operation("promote").invoke(context, request)
    assert result.approved_via == "agent"
    assert _authorizations(repo) == ["agent"]


def test_a_decline_after_another_path_applied_the_plan_leaves_it_applied(
    gm: Any, repo: Repo
) -> None:
    scenario = build(repo)

    def late_decline(summary: str, diff: str) -> str:
        # While the form is open, the plan is applied at a terminal by its digest.
        assert gm(scenario.promote_args(), cwd=repo.root).exit_code == 0
        return "declined"

    with pytest.raises(GitMemoryError) as caught:
        _promote(repo, scenario.plan_id, form=late_decline, via="elicitation", front_end="mcp")
    assert caught.value.code == "GM_APPROVAL_DECLINED"
    assert "applied meanwhile" in caught.value.message
    assert scenario.current() == scenario.planned
    # No decline was stored for an applied plan: promoting it again replays the success.
    assert gm(scenario.promote_args(), cwd=repo.root).exit_code == 0
    assert _authorizations(repo) == ["digest"]
