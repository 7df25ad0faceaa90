"""Task protocol: idempotent planning, claim/lease/token CAS, abandon, one accepted submission."""

from __future__ import annotations

from typing import Any

import pytest

from git_memory.contracts.extraction import OwnerKeys
from git_memory.errors import GitMemoryError
from git_memory.store import tasks
from git_memory.store.candidates import get_candidate, insert_candidate
from git_memory.store.db import StateDB

OWNER = OwnerKeys(repository_key="a" * 64, worktree_key="b" * 64)


def _plan(db: StateDB, task_id: str = "t1") -> tasks.Task:
    task, _ = tasks.plan_task(
        db, task_id=task_id, kind="extraction", owner=OWNER, binding={"chunk": task_id}
    )
    return task


def _code(call: Any) -> str:
    with pytest.raises(GitMemoryError) as caught:
        call()
    return caught.value.code


def test_plan_is_idempotent_and_refuses_a_different_binding(db: StateDB) -> None:
    first, created = tasks.plan_task(
        db, task_id="t1", kind="extraction", owner=OWNER, binding={"x": 1}
    )
    again, created_again = tasks.plan_task(
        db, task_id="t1", kind="extraction", owner=OWNER, binding={"x": 1}
    )
    assert (created, created_again) == (True, False)
    assert again == first
    assert first.status == "pending"
    assert (
        _code(
            lambda: tasks.plan_task(
                db, task_id="t1", kind="extraction", owner=OWNER, binding={"x": 2}
            )
        )
        == "GM_TASK_CONFLICT"
    )


def test_claim_bumps_epoch_and_a_live_lease_blocks_others(db: StateDB) -> None:
    _plan(db)
    claim = tasks.claim_task(db, "t1", holder="a", lease_ms=60_000)
    assert claim.lease_epoch == 1
    assert len(claim.claim_token) == 32
    assert _code(lambda: tasks.claim_task(db, "t1", holder="b", lease_ms=1000)) == (
        "GM_TASK_CLAIMED"
    )
    assert _code(lambda: tasks.claim_task(db, "nope", holder="b", lease_ms=1000)) == (
        "GM_TASK_NOT_FOUND"
    )
    assert _code(lambda: tasks.claim_task(db, "t1", holder="b", lease_ms=0)) == ("GM_LEASE_INVALID")


def test_expired_lease_is_reclaimable_and_old_token_is_refused(db: StateDB) -> None:
    _plan(db)
    old = tasks.claim_task(db, "t1", holder="a", lease_ms=1000, now=1_000)
    new = tasks.claim_task(db, "t1", holder="b", lease_ms=60_000, now=5_000)
    assert new.lease_epoch == old.lease_epoch + 1
    assert new.claim_token != old.claim_token

    def submit(token: str, now: int) -> tasks.SubmitResult:
        return tasks.submit_task(
            db,
            task_id="t1",
            claim_token=token,
            response_digest="d" * 64,
            apply=lambda _db, _task: {"ok": True},
            now=now,
        )

    assert _code(lambda: submit(old.claim_token, 6_000)) == "GM_CLAIM_TOKEN_MISMATCH"
    assert _code(lambda: submit(new.claim_token, 70_000)) == "GM_LEASE_EXPIRED"
    assert submit(new.claim_token, 6_000).outcome == {"ok": True}


def test_submitted_and_stale_tasks_are_never_claimable(db: StateDB) -> None:
    _plan(db, "t1")
    claim = tasks.claim_task(db, "t1", holder="a", lease_ms=60_000)
    tasks.submit_task(
        db,
        task_id="t1",
        claim_token=claim.claim_token,
        response_digest="d" * 64,
        apply=lambda _db, _task: {},
    )
    assert _code(lambda: tasks.claim_task(db, "t1", holder="b", lease_ms=1)) == (
        "GM_TASK_SUBMITTED"
    )
    _plan(db, "t2")
    assert tasks.mark_stale(db, "t2", "turn revision changed")
    assert _code(lambda: tasks.claim_task(db, "t2", holder="b", lease_ms=1)) == "GM_TASK_STALE"
    assert not tasks.mark_stale(db, "t1", "too late")  # submitted stays submitted


def test_abandon_returns_the_task_to_pending(db: StateDB) -> None:
    _plan(db)
    claim = tasks.claim_task(db, "t1", holder="a", lease_ms=60_000)
    assert _code(lambda: tasks.abandon_task(db, "t1", "0" * 32)) == "GM_CLAIM_TOKEN_MISMATCH"
    tasks.abandon_task(db, "t1", claim.claim_token)
    task = tasks.get_task(db, "t1")
    assert task is not None
    assert task.status == "pending"
    assert tasks.claim_task(db, "t1", holder="b", lease_ms=1000).lease_epoch == 2


def test_same_digest_replays_and_different_digest_is_refused_and_audited(db: StateDB) -> None:
    _plan(db)
    claim = tasks.claim_task(db, "t1", holder="a", lease_ms=60_000)
    calls: list[str] = []

    def apply(inner: StateDB, task: tasks.Task) -> dict[str, Any]:
        calls.append(task.task_id)
        insert_candidate(
            inner,
            candidate_id="c1",
            owner=task.owner,
            kind="entry",
            payload={"content": "x"},
            content="x",
            task_id=task.task_id,
        )
        return {"candidateIds": ["c1"]}

    first = tasks.submit_task(
        db, task_id="t1", claim_token=claim.claim_token, response_digest="d" * 64, apply=apply
    )
    replay = tasks.submit_task(
        db, task_id="t1", claim_token="whatever", response_digest="d" * 64, apply=apply
    )
    assert (first.idempotent, replay.idempotent) == (False, True)
    assert replay.outcome == first.outcome == {"candidateIds": ["c1"]}
    assert calls == ["t1"]
    code = _code(
        lambda: tasks.submit_task(
            db, task_id="t1", claim_token=claim.claim_token, response_digest="e" * 64, apply=apply
        )
    )
    assert code == "GM_SUBMISSION_CONFLICT"
    assert db.scalar("SELECT count(*) FROM submission_conflicts WHERE task_id = ?", ("t1",)) == 1


def test_failing_apply_rolls_back_everything_and_keeps_the_claim(db: StateDB) -> None:
    _plan(db)
    claim = tasks.claim_task(db, "t1", holder="a", lease_ms=60_000)

    def apply(inner: StateDB, task: tasks.Task) -> dict[str, Any]:
        insert_candidate(
            inner,
            candidate_id="c1",
            owner=task.owner,
            kind="entry",
            payload={},
            content="half applied",
        )
        raise ValueError("refused by validation")

    with pytest.raises(ValueError, match="refused by validation"):
        tasks.submit_task(
            db, task_id="t1", claim_token=claim.claim_token, response_digest="d" * 64, apply=apply
        )
    assert get_candidate(db, "c1") is None
    assert db.scalar("SELECT count(*) FROM candidate_fts") == 0
    task = tasks.get_task(db, "t1")
    assert task is not None
    assert task.status == "claimed"


def test_claim_and_list(db: StateDB) -> None:
    _plan(db, "t1")
    _plan(db, "t2")
    for task_id in ("t1", "t2"):
        tasks.claim_task(db, task_id, holder="a", lease_ms=60_000)
    assert [t.task_id for t in tasks.list_tasks(db, OWNER, status="claimed")] == ["t1", "t2"]
