"""Scenarios for the crash tests: set up in the test, act in a child process that dies.

`python -m tests.store.crash_driver SCENARIO DIR` runs the scenario's action against the
state in DIR; with `GIT_MEMORY_FAILPOINT` set the process dies at that point (status 86).
`classify(SCENARIO, DIR)` tells the state that survived: "old", "new" or "half" (a bug).
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path

from git_memory.contracts.extraction import OwnerKeys
from git_memory.formats.entry import Entry, serialize_entry
from git_memory.store import authorization, journal, tasks
from git_memory.store import candidates as cands
from git_memory.store.approved import sync_approved
from git_memory.store.chunks import get_chunk, set_chunk_status, upsert_chunk
from git_memory.store.consolidation_runs import record_consolidation_run
from git_memory.store.db import StateDB

OWNER = OwnerKeys(repository_key="a" * 64, worktree_key="b" * 64)
ROOT = ".memory"


def open_db(directory: Path) -> StateDB:
    return StateDB(directory / "state" / "memory-state.sqlite3")


def _entry(directory: Path, entry_id: str, body: str) -> None:
    path = directory / "wt" / ROOT / "entries" / f"{entry_id}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(serialize_entry(Entry(id=entry_id, body=body)), encoding="utf-8")


def _claimed(directory: Path) -> None:
    with open_db(directory) as db:
        tasks.plan_task(db, task_id="t1", kind="extraction", owner=OWNER, binding={"n": 1})
        claim = tasks.claim_task(db, "t1", holder="parent", lease_ms=3_600_000)
        upsert_chunk(
            db, chunk_ref="k1", owner=OWNER, session_key="s", turn_range="0:1", chunk_digest="d"
        )
    (directory / "token").write_text(claim.claim_token)


def _synced(directory: Path) -> None:
    _entry(directory, "alpha", "alpha first version\n")
    _entry(directory, "beta", "beta first version\n")
    with open_db(directory) as db:
        sync_approved(db, OWNER, directory / "wt", ROOT)
    (directory / "wt" / ROOT / "entries" / "alpha.md").unlink()
    _entry(directory, "beta", "beta second version\n")
    _entry(directory, "gamma", "gamma arrives\n")


def _racy(directory: Path) -> None:
    _entry(directory, "alpha", "alpha\n")
    with open_db(directory) as db:
        sync_approved(db, OWNER, directory / "wt", ROOT)
        stamp = time.time_ns()
        db.execute("UPDATE approved_projection SET scanned_at_ns = ?", (stamp,))
    (directory / "scanned").write_text(str(stamp))


def _plain(directory: Path) -> None:
    with open_db(directory) as db:
        tasks.plan_task(db, task_id="t1", kind="extraction", owner=OWNER, binding={"n": 1})


def _nothing(directory: Path) -> None:
    (directory / "state").mkdir(parents=True, exist_ok=True)


def _apply(db: StateDB, task: tasks.Task) -> dict[str, object]:
    ids = []
    for n in range(3):
        cid = f"cand-{n}"
        cands.insert_candidate(
            db, candidate_id=cid, owner=task.owner, kind="entry", payload={"n": n},
            content=f"candidate number {n} about sqlite", task_id=task.task_id,
        )  # fmt: skip
        cands.add_evidence_refs(db, cid, [cands.EvidenceRef("s1", "ev-1-0123456789ab", "p" * 64)])
        ids.append(cid)
    cands.bump_candidate_generation(db, task.owner)
    set_chunk_status(db, "k1", "drafted")
    return {"candidateIds": ids}


def _submit(directory: Path) -> None:
    token = (directory / "token").read_text()
    with open_db(directory) as db:
        tasks.submit_task(
            db, task_id="t1", claim_token=token, response_digest="r" * 64, apply=_apply
        )


def _sync(directory: Path) -> None:
    with open_db(directory) as db:
        sync_approved(db, OWNER, directory / "wt", ROOT)


def _sync_drifting(directory: Path) -> None:
    counter = iter(range(1000))

    def edit() -> None:
        _entry(directory, "beta", f"beta edit {next(counter)}\n")

    with open_db(directory) as db:
        sync_approved(db, OWNER, directory / "wt", ROOT, retries=0, on_scanned=edit)


def _plan_promotion(directory: Path) -> None:
    from git_memory.contracts.binding import RepositoryBinding
    from git_memory.contracts.promotion import PromotionPlan

    binding = RepositoryBinding(
        repository_key=OWNER.repository_key, worktree_key=OWNER.worktree_key,
        public_repository_identity=None, root_realpath_digest="0" * 64,
        common_directory_identity={"device": "1", "inode": "2"}, memory_root=".memory",
    )  # fmt: skip
    paths = [f".memory/entries/{n}.md" for n in ("a", "b")]
    plan = PromotionPlan(
        plan_id="p1", owner=binding, candidate_ids=["c1"], assessment_digest="5" * 64,
        per_file=[{"targetPath": p, "targetBlobHash": None, "sanitizedContentDigest": "d" * 64}
                 for p in paths],
        diff="",
    )  # fmt: skip
    with open_db(directory) as db:
        journal.create_plan(db, plan=plan, owner=OWNER, contents=dict.fromkeys(paths, b"x"))


ACTIONS: dict[str, Callable[[Path], None]] = {
    "migrate": lambda d: open_db(d).close(),
    "claim": lambda d: _run(d, lambda db: tasks.claim_task(db, "t1", holder="c", lease_ms=60_000)),
    "abandon": lambda d: _run(d, lambda db: tasks.abandon_task(db, "t1", _token(d))),
    "mark-stale": lambda d: _run(d, lambda db: tasks.mark_stale(db, "t1", "test")),
    "submit": _submit,
    "sync": _sync,
    "sync-partial": _sync_drifting,
    "sync-verified": _sync,
    "journal": _plan_promotion,
    "consolidation": lambda d: _run(
        d,
        lambda db: record_consolidation_run(
            db, run_id="r1", owner=OWNER, task_id=None, entry_count=20, patch={}, state="no_op"
        ),
    ),
    "authorization": lambda d: _run(
        d,
        lambda db: authorization.record_authorization(
            db,
            owner=OWNER,
            subject_kind="runner-plan",
            subject_digest="x",
            via="digest",
            detail={},
        ),
    ),
    "delivery": lambda d: _run(
        d, lambda db: authorization.begin_delivery(db, plan_digest="x" * 64, task_id="t1")
    ),
}

SETUPS: dict[str, Callable[[Path], None]] = {
    "migrate": _nothing,
    "claim": _plain,
    "abandon": _claimed,
    "mark-stale": _plain,
    "submit": _claimed,
    "sync": _synced,
    "sync-partial": _synced,
    "sync-verified": _racy,
    "journal": _nothing,
    "consolidation": _nothing,
    "authorization": _nothing,
    "delivery": _nothing,
}


def _token(directory: Path) -> str:
    return (directory / "token").read_text()


def _run(directory: Path, action: Callable[[StateDB], object]) -> None:
    with open_db(directory) as db:
        action(db)


def _raw(directory: Path) -> sqlite3.Connection:
    return sqlite3.connect(directory / "state" / "memory-state.sqlite3")


def classify(scenario: str, directory: Path) -> str:
    """Which state survived: "old" (nothing applied), "new" (all applied) or "half"."""
    if scenario == "migrate":
        raw = _raw(directory)
        try:
            have = raw.execute(
                "SELECT count(*) FROM sqlite_master WHERE name = 'schema_migrations'"
            ).fetchone()[0]
            applied = (
                raw.execute("SELECT count(*) FROM schema_migrations").fetchone()[0] if have else 0
            )
            tables = raw.execute(
                "SELECT count(*) FROM sqlite_master WHERE name = 'tasks'"
            ).fetchone()[0]
        finally:
            raw.close()
        if (applied, tables) == (0, 0):
            return "old"
        return "new" if applied >= 1 and tables == 1 else "half"
    with open_db(directory) as db:
        if scenario == "sync-verified":
            return _verified_state(db, directory)
        return _CLASSIFIERS[scenario](db)


def _task_state(db: StateDB) -> str:
    task = tasks.get_task(db, "t1")
    return task.status if task else "missing"


def _submit_state(db: StateDB) -> str:
    count = db.scalar("SELECT count(*) FROM candidates")
    evidence = db.scalar("SELECT count(*) FROM evidence_refs")
    generation = cands.candidate_generation(db, OWNER)
    chunk = get_chunk(db, "k1")
    status = (_task_state(db), count, evidence, generation, chunk.status if chunk else None)
    replies = db.scalar("SELECT count(*) FROM submissions")
    if status == ("claimed", 0, 0, 0, "pending") and replies == 0:
        return "old"
    if status == ("submitted", 3, 3, 1, "drafted") and replies == 1:
        return "new"
    return "half"


def _approved_state(db: StateDB) -> str:
    rows = dict(db.rows("SELECT entry_id, body_text FROM approved_entries ORDER BY entry_id"))
    generation = db.scalar("SELECT generation FROM approved_projection")
    old = {"alpha": "alpha first version\n", "beta": "beta first version\n"}
    new = {"beta": "beta second version\n", "gamma": "gamma arrives\n"}
    if rows == old and generation == 1:
        return "old"
    if rows == new and generation == 2:
        return "new"
    return "half"


def _partial_state(db: StateDB) -> str:
    coverage = db.scalar("SELECT coverage FROM approved_projection")
    generation = db.scalar("SELECT generation FROM approved_projection")
    if generation != 1:
        return "half"
    return {"complete": "old", "partial": "new"}.get(str(coverage), "half")


def _verified_state(db: StateDB, directory: Path) -> str:
    scanned = db.scalar("SELECT scanned_at_ns FROM approved_projection")
    before = int((directory / "scanned").read_text())
    return "old" if scanned == before else "new" if scanned > before else "half"


def _journal_state(db: StateDB) -> str:
    plans = db.scalar("SELECT count(*) FROM promotion_journal")
    files = db.scalar("SELECT count(*) FROM promotion_files")
    return {(0, 0): "old", (1, 2): "new"}.get((plans, files), "half")


_CLASSIFIERS: dict[str, Callable[[StateDB], str]] = {
    "claim": lambda db: {"pending": "old", "claimed": "new"}.get(_task_state(db), "half"),
    "abandon": lambda db: {"claimed": "old", "pending": "new"}.get(_task_state(db), "half"),
    "mark-stale": lambda db: {"pending": "old", "stale": "new"}.get(_task_state(db), "half"),
    "submit": _submit_state,
    "sync": _approved_state,
    "sync-partial": _partial_state,
    "journal": _journal_state,
    "consolidation": lambda db: ["old", "new"][
        db.scalar("SELECT count(*) FROM consolidation_runs")
    ],
    "authorization": lambda db: ["old", "new"][db.scalar("SELECT count(*) FROM authorization_log")],
    "delivery": lambda db: ["old", "new"][db.scalar("SELECT count(*) FROM runner_deliveries")],
}


def main(argv: list[str]) -> int:
    scenario, directory = argv[0], Path(argv[1])
    ACTIONS[scenario](directory)
    sys.stdout.write(json.dumps({"done": scenario}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
