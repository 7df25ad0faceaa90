"""Plans expire cleanly: status lists open plans, a fresh prepare follows the files, a voided
plan stays void."""

from __future__ import annotations

from typing import Any

from tests.promote.helpers import prepare_request, seed_candidate
from tests.promote.scenario import NEW_PATH, OLD_BYTES, OLD_PATH, build, prepare
from tests.repos import Repo


def _promotions(gm: Any, repo: Repo) -> dict[str, Any]:
    result = gm(["status", "--format", "json"], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    promotions: dict[str, Any] = result.json()["counts"]["promotions"]
    return promotions


def test_status_lists_open_plans(gm: Any, repo: Repo) -> None:
    before = repo.snapshot()
    scenario = build(repo)
    promotions = _promotions(gm, repo)
    assert promotions["generated"] == 1
    assert promotions["openPlans"] == [
        {"planId": scenario.plan_id, "status": "generated", "candidates": 2}
    ]
    assert promotions["applyingPlanIds"] == []
    text = gm(["status"], cwd=repo.root)
    short_id = scenario.plan_id[: len("plan-") + 7]
    assert (
        f"promotion plan {short_id} (2 confirmed candidates) waits; write it:"
        f" git memory promote --plan {short_id}"
    ) in text.stdout
    assert gm(scenario.promote_args(), cwd=repo.root).exit_code == 0
    promotions = _promotions(gm, repo)
    assert (promotions["generated"], promotions["applied"], promotions["openPlans"]) == (0, 1, [])
    assert repo.snapshot() == before


def test_prepare_after_the_files_changed_gives_a_fresh_plan(gm: Any, repo: Repo) -> None:
    scenario = build(repo)
    edited = OLD_BYTES.replace(b"The old text", b"Changed meanwhile")
    (repo.root / OLD_PATH).write_bytes(edited)
    (repo.root / NEW_PATH).write_text("someone else's entry\n")
    stale = gm(scenario.promote_args(), cwd=repo.root)
    assert "GM_PLAN_DRIFT" in stale.stderr
    voided = gm(scenario.promote_args(), cwd=repo.root)
    assert "GM_PLAN_VOIDED" in voided.stderr
    # The candidates are untouched by the void: confirm them again, against the new files.
    first = _item(repo, "cand-new")
    second = _item(repo, "cand-upd")
    fresh = prepare(repo, prepare_request(first, second))
    assert fresh.plan_id != scenario.plan_id
    by_path = {f.target_path: f for f in fresh.per_file}
    assert ".memory/entries/alpha-fact-about-the-build-2.md" in by_path
    assert by_path[OLD_PATH].target_blob_hash is not None
    assert "-The old text" not in fresh.diff
    assert "-Changed meanwhile" in fresh.diff
    applied = gm(
        ["promote", "--plan", fresh.plan_id, "--approve", fresh.plan_digest], cwd=repo.root
    )
    assert applied.exit_code == 0, applied.stderr
    assert (repo.root / NEW_PATH).read_text() == "someone else's entry\n"
    assert _promotions(gm, repo)["voided"] == 1


def _item(repo: Repo, candidate_id: str) -> dict[str, Any]:
    """The PrepareRequest item of a seeded candidate as review would show it now."""
    from git_memory.repo.binding import discover_worktree
    from git_memory.store import candidates as store
    from git_memory.store.db import open_state

    with open_state(discover_worktree(repo.root).state_home) as db:
        candidate = store.get_candidate(db, candidate_id)
        assessments = store.assessments(db, candidate_id)
    assert candidate is not None
    return {
        "candidateId": candidate_id,
        "expectedRevision": candidate.revision,
        "statements": [
            {
                "statementId": a.statement_id,
                "statementTextDigest": a.statement_text_digest,
                "citationsDigest": a.citations_digest,
            }
            for a in assessments
        ],
    }


def test_a_voided_plan_cannot_be_approved(gm: Any, repo: Repo) -> None:
    item = seed_candidate(repo.root, "c1", "Fact one")
    plan = prepare(repo, prepare_request(item))
    target = repo.root / plan.per_file[0].target_path
    target.parent.mkdir(parents=True)
    target.write_text("taken\n")
    args = ["promote", "--plan", plan.plan_id, "--approve", plan.plan_digest]
    assert "GM_PLAN_DRIFT" in gm(args, cwd=repo.root).stderr
    target.unlink()
    again = gm(args, cwd=repo.root)
    assert again.exit_code == 1
    assert "GM_PLAN_VOIDED" in again.stderr
    assert not target.exists()
