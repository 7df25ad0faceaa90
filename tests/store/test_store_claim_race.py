"""2–8 processes race to claim the same task: exactly one wins, every round."""

from __future__ import annotations

import multiprocessing
import time
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

import pytest

from git_memory.contracts.extraction import OwnerKeys
from git_memory.errors import GitMemoryError
from git_memory.store import tasks
from git_memory.store.db import StateDB
from tests.waiting import HANG_CEILING

OWNER = OwnerKeys(repository_key="a" * 64, worktree_key="b" * 64)
ROUNDS = 20


def _worker(path: str, barrier: Barrier, results: Any, rounds: int, me: int) -> None:
    db = StateDB(Path(path))  # opened in the child: connections are never shared
    for round_no in range(rounds):
        barrier.wait()
        try:
            claim = tasks.claim_task(db, f"task-{round_no}", holder=f"w{me}", lease_ms=60_000)
            results.put((round_no, me, "won", claim.claim_token, claim.lease_epoch))
        except GitMemoryError as exc:
            results.put((round_no, me, exc.code, None, None))
    # Stay alive until every round is judged: a lease whose holder process has exited is
    # free to take over, which is not the race measured here.
    barrier.wait()
    db.close()


@pytest.mark.parametrize("workers", [2, 3, 5, 8])
def test_exactly_one_claimer_wins_every_round(tmp_path: Path, workers: int) -> None:
    path = tmp_path / "m.sqlite3"
    db = StateDB(path)
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(workers + 1)
    results = context.Queue()
    procs = [
        context.Process(target=_worker, args=(str(path), barrier, results, ROUNDS, me))
        for me in range(workers)
    ]
    for proc in procs:
        proc.start()
    try:
        for round_no in range(ROUNDS):
            tasks.plan_task(
                db,
                task_id=f"task-{round_no}",
                kind="extraction",
                owner=OWNER,
                binding={"r": round_no},
            )
            expired = round_no % 2 == 1
            if expired:  # odd rounds race for an expired lease instead of a pending task
                tasks.claim_task(db, f"task-{round_no}", holder="parent", lease_ms=1)
                time.sleep(0.005)
            barrier.wait()
            outcomes = [results.get(timeout=HANG_CEILING) for _ in range(workers)]
            assert {o[0] for o in outcomes} == {round_no}
            winners = [o for o in outcomes if o[2] == "won"]
            assert len(winners) == 1, outcomes
            assert {o[2] for o in outcomes if o[2] != "won"} <= {"GM_TASK_CLAIMED"}
            task = tasks.get_task(db, f"task-{round_no}")
            assert task is not None
            assert task.lease_holder == f"w{winners[0][1]}"
            assert task.lease_epoch == winners[0][4] == (2 if expired else 1)
        barrier.wait()
    finally:
        for proc in procs:
            proc.join(timeout=HANG_CEILING)
        db.close()
    assert all(proc.exitcode == 0 for proc in procs)
