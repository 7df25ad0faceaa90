"""Promotion journal CRUD, authorization log and runner deliveries."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from git_memory.contracts.canonical import sha256_hex
from git_memory.contracts.extraction import OwnerKeys
from git_memory.contracts.promotion import PromotionPlan
from git_memory.errors import GitMemoryError
from git_memory.repo.binding import discover_worktree
from git_memory.store import authorization as auth
from git_memory.store import journal
from git_memory.store.consolidation_runs import consolidation_runs, record_consolidation_run
from git_memory.store.db import StateDB
from tests.repos import Repo
from tests.store.authorization_rows import list_authorizations

OWNER = OwnerKeys(repository_key="a" * 64, worktree_key="b" * 64)


def _plan(repo: Repo) -> PromotionPlan:
    binding = discover_worktree(repo.root).binding()
    return PromotionPlan(
        plan_id="plan-1", owner=binding, candidate_ids=["c1"], assessment_digest="5" * 64,
        per_file=[{"targetPath": ".memory/entries/a.md", "targetBlobHash": None,
                  "sanitizedContentDigest": sha256_hex(b"new bytes\n")},
                 {"targetPath": ".memory/entries/b.md", "targetBlobHash": "1" * 40,
                  "sanitizedContentDigest": sha256_hex(b"other\n")}],
        diff="",
    )  # fmt: skip


def test_plan_lifecycle_and_file_progress(db: StateDB, repo: Repo) -> None:
    plan = _plan(repo)
    contents = {".memory/entries/a.md": b"new bytes\n", ".memory/entries/b.md": b"other\n"}
    journal.create_plan(db, plan=plan, owner=OWNER, contents=contents)
    stored = journal.require_plan(db, "plan-1")
    assert (stored.status, stored.plan_digest, stored.candidate_ids) == (
        "generated", plan.plan_digest(), ["c1"])  # fmt: skip
    assert [f.content for f in stored.files] == [b"new bytes\n", b"other\n"]
    assert journal.plan_counts(db, OWNER)["generated"] == 1
    assert journal.transition(db, "plan-1", expected=("generated",), status="approved")
    assert not journal.transition(db, "plan-1", expected=("generated",), status="approved")
    journal.set_rollback(db, "plan-1", ".memory/entries/b.md", originally_present=True,
                         content=b"old\n")  # fmt: skip
    journal.set_file_state(db, "plan-1", ".memory/entries/b.md", "intent")
    b_file = journal.require_plan(db, "plan-1").files[1]
    assert (b_file.intent_state, b_file.originally_present, b_file.rollback_content) == (
        "intent", True, b"old\n")  # fmt: skip
    journal.clear_rollback(db, "plan-1")
    assert journal.require_plan(db, "plan-1").files[1].rollback_content is None
    assert journal.plan_ids(db, OWNER, ("approved",)) == ["plan-1"]
    journal.record_authorization(db, OWNER, plan_digest=plan.plan_digest(), via="agent",
                                 detail={"planId": "plan-1"})  # fmt: skip
    [logged] = list_authorizations(db, OWNER)
    assert (logged.subject_kind, logged.subject_digest, logged.via) == (
        "promotion-plan", plan.plan_digest(), "agent")  # fmt: skip


def test_consolidation_runs(db: StateDB) -> None:
    record_consolidation_run(
        db, run_id="r1", owner=OWNER, task_id=None, entry_count=20, patch={"operations": []}
    )
    record_consolidation_run(
        db, run_id="r1", owner=OWNER, task_id=None, entry_count=20, patch={}, state="no_op"
    )
    runs = consolidation_runs(db, OWNER)
    assert [(r["runId"], r["state"]) for r in runs] == [("r1", "no_op")]


def test_authorization_log_uses_the_shared_ddl(db: StateDB, tmp_path: Path) -> None:
    first = auth.record_authorization(
        db, owner=OWNER, subject_kind="promotion-plan", subject_digest="p" * 64,
        via="elicitation", detail={"planId": "plan-1", "files": 2},
    )  # fmt: skip
    second = auth.record_authorization(
        db, owner=OWNER, subject_kind="runner-plan", subject_digest="r" * 64, via="digest",
        detail={},
    )  # fmt: skip
    assert second == first + 1
    rows = list_authorizations(db, OWNER)
    assert [(r.subject_kind, r.via) for r in rows] == [
        ("promotion-plan", "elicitation"),
        ("runner-plan", "digest"),
    ]
    assert rows[0].detail == {"files": 2, "planId": "plan-1"}
    assert list_authorizations(db, OwnerKeys(repository_key="c" * 64, worktree_key="d" * 64)) == []
    with pytest.raises(ValueError, match="channel"):
        auth.record_authorization(
            db, owner=OWNER, subject_kind="runner-plan", subject_digest="r", via="magic", detail={}
        )
    raw = sqlite3.connect(db.path)
    columns = [row[1] for row in raw.execute("PRAGMA table_info(authorization_log)")]
    detail = raw.execute("SELECT detail FROM authorization_log WHERE id = ?", (first,)).fetchone()[
        0
    ]
    raw.close()
    assert columns == [
        "id", "at", "repository_key", "worktree_key", "subject_kind", "subject_digest", "via",
        "detail",
    ]  # fmt: skip
    assert detail == json.dumps({"files": 2, "planId": "plan-1"}, separators=(",", ":"))


def test_deliveries_are_at_most_once(db: StateDB) -> None:
    assert auth.delivery_state(db, "x" * 64) is None
    assert auth.begin_delivery(db, plan_digest="x" * 64, task_id="t1")
    assert not auth.begin_delivery(db, plan_digest="x" * 64, task_id="t1")
    state = auth.delivery_state(db, "x" * 64)
    assert state is not None
    assert state.state == "sending"
    auth.finish_delivery(db, "x" * 64, "delivered")
    finished = auth.delivery_state(db, "x" * 64)
    assert finished is not None
    assert (finished.state, finished.finished_at is not None) == ("delivered", True)
    with pytest.raises(GitMemoryError) as caught:
        auth.finish_delivery(db, "x" * 64, "failed")
    assert caught.value.code == "GM_DELIVERY_STATE_INVALID"
    assert auth.begin_delivery(db, plan_digest="y" * 64, task_id="t2")
    auth.finish_delivery(db, "y" * 64, "indeterminate")
    interrupted = auth.delivery_state(db, "y" * 64)
    assert interrupted is not None
    assert interrupted.state == "indeterminate"
