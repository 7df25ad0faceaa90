"""Promotion journal CRUD, authorization log and runner deliveries."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from git_memory.errors import GitMemoryError
from git_memory.store import authorization as auth
from git_memory.store import journal
from git_memory.store.db import Owner, StateDB

OWNER = Owner("a" * 64, "b" * 64)


@pytest.fixture
def db(tmp_path: Path) -> StateDB:
    return StateDB(tmp_path / "m.sqlite3")


def _files() -> list[journal.PlanFile]:
    return [
        journal.PlanFile(".memory/entries/a.md", "write", None, b"new bytes\n", "d" * 64),
        journal.PlanFile(".memory/entries/b.md", "write", "1" * 40, b"other\n", "e" * 64),
    ]


def _create(db: StateDB, digest: str = "p" * 64) -> journal.Plan:
    return journal.create_plan(
        db,
        plan_id="plan-1",
        owner=OWNER,
        plan={"planId": "plan-1"},
        plan_digest=digest,
        candidate_ids=["c1"],
        assessment_digest="s" * 64,
        policy_version="sanitize@1",
        files=_files(),
    )


def test_plan_lifecycle_and_file_progress(db: StateDB) -> None:
    plan = _create(db)
    assert (plan.status, plan.mutation_phase, plan.candidate_ids) == (
        "generated",
        "precheck",
        ["c1"],
    )
    assert _create(db) == plan  # idempotent
    with pytest.raises(GitMemoryError) as caught:
        _create(db, digest="q" * 64)
    assert caught.value.code == "GM_PLAN_CONFLICT"
    assert journal.get_plan_by_digest(db, "p" * 64) == plan
    assert [f.target_path for f in journal.plan_files(db, "plan-1")] == [
        f.target_path for f in _files()
    ]
    journal.set_plan_status(db, "plan-1", expected=("generated",), status="approved")
    with pytest.raises(GitMemoryError) as caught:
        journal.set_plan_status(db, "plan-1", expected=("generated",), status="approved")
    assert caught.value.code == "GM_PLAN_STATE_INVALID"
    applying = journal.set_plan_status(
        db, "plan-1", expected=("approved",), status="applying", mutation_phase="mutating"
    )
    assert (applying.status, applying.mutation_phase) == ("applying", "mutating")
    journal.set_file_state(
        db, "plan-1", ".memory/entries/b.md", "intent", originally_present=True,
        rollback_content=b"old\n", rollback_digest="o" * 64,
    )  # fmt: skip
    b_file = journal.plan_files(db, "plan-1")[1]
    assert (b_file.intent_state, b_file.originally_present, b_file.rollback_content) == (
        "intent",
        True,
        b"old\n",
    )
    with pytest.raises(GitMemoryError) as caught:
        journal.set_file_state(db, "plan-1", "nope.md", "applied")
    assert caught.value.code == "GM_PLAN_STATE_INVALID"
    journal.clear_rollback(db, "plan-1")
    assert journal.plan_files(db, "plan-1")[1].rollback_content is None
    assert [p.plan_id for p in journal.list_plans(db, OWNER, "applying")] == ["plan-1"]


def test_consolidation_runs_and_conformance(db: StateDB) -> None:
    journal.record_consolidation_run(
        db, run_id="r1", owner=OWNER, task_id=None, entry_count=20, patch={"operations": []}
    )
    journal.record_consolidation_run(
        db, run_id="r1", owner=OWNER, task_id=None, entry_count=20, patch={}, state="no_op"
    )
    runs = journal.consolidation_runs(db, OWNER)
    assert [(r["runId"], r["state"]) for r in runs] == [("r1", "no_op")]
    journal.record_conformance(
        db, profile="codex", cli_version_fingerprint="f", test_version="t", record={"ok": True}
    )
    conformance = journal.get_conformance(db, "codex")
    assert conformance is not None
    assert conformance["record"] == {"ok": True}
    assert journal.get_conformance(db, "claude") is None


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
    rows = auth.list_authorizations(db, OWNER)
    assert [(r.subject_kind, r.via) for r in rows] == [
        ("promotion-plan", "elicitation"),
        ("runner-plan", "digest"),
    ]
    assert rows[0].detail == {"files": 2, "planId": "plan-1"}
    assert auth.list_authorizations(db, Owner("c" * 64, "d" * 64)) == []
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
    assert auth.mark_interrupted_deliveries(db) == ["y" * 64]
    interrupted = auth.delivery_state(db, "y" * 64)
    assert interrupted is not None
    assert interrupted.state == "indeterminate"
