"""The flow-facing API: plan → approve (digest / manifest / ask / required) → run."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from git_memory.contracts.extraction import OwnerKeys
from git_memory.errors import GitMemoryError
from git_memory.repo.binding import discover_worktree
from git_memory.runners.profiles import RunnerOptions
from git_memory.runners.session import RunnerSession
from git_memory.store.db import open_state
from tests.repos import Repo
from tests.runners.conftest import spawn_count
from tests.store.authorization_rows import list_authorizations

FakeRunner = Callable[[str], Path]


@pytest.fixture
def session_for(repo: Repo) -> Iterator[Callable[[Path], RunnerSession]]:
    worktree = discover_worktree(repo.root)
    db = open_state(worktree.state_home)
    binding = worktree.binding()
    owner = OwnerKeys(repository_key=binding.repository_key, worktree_key=binding.worktree_key)

    def make(script: Path) -> RunnerSession:
        return RunnerSession.open(
            worktree, RunnerOptions("command", command=str(script)), db, owner
        )

    yield make
    db.close()


def _code(call: Callable[[], object]) -> GitMemoryError:
    with pytest.raises(GitMemoryError) as caught:
        call()
    return caught.value


def test_approval_required_lists_pending_plans(
    session_for: Callable[[Path], RunnerSession], fake_runner: FakeRunner
) -> None:
    session = session_for(fake_runner("conformant"))
    one = session.plan("extraction", "extract-1", b"first")
    error = _code(lambda: session.approve([one]))
    assert error.code == "GM_APPROVAL_REQUIRED"
    assert error.details["plans"][0]["planDigest"] == one.plan_digest
    assert "manifest" not in error.details
    assert f"--approve-plan {one.plan_digest}" in (error.hint or "")
    two = session.plan("extraction", "extract-2", b"second")
    error = _code(lambda: session.approve([one, two]))
    manifest = error.details["manifest"]
    assert [p["taskId"] for p in manifest["plans"]] == ["extract-1", "extract-2"]
    assert manifest["authorization"] == "pending"


def test_manifest_approval_in_a_later_run(
    session_for: Callable[[Path], RunnerSession], fake_runner: FakeRunner
) -> None:
    script = fake_runner("conformant")
    session = session_for(script)
    first = [session.plan("extraction", f"extract-{n}", f"input {n}".encode()) for n in (1, 2)]
    digest = _code(lambda: session.approve(first)).details["manifest"]["manifestDigest"]
    # a later invocation: task 2's input changed, task 1's did not
    later = session_for(script)
    again = [later.plan("extraction", "extract-1", b"input 1")]
    again.append(later.plan("extraction", "extract-2", b"input 2, changed"))
    approved = later.approve(again, approve_manifest=digest)
    assert [plan.task_id for plan in approved] == ["extract-1"]
    vias = [row.via for row in list_authorizations(later.ledger.db, later.ledger.owner)]
    assert vias == ["manifest", "manifest"]
    assert _code(lambda: later.approve(again, approve_manifest="0" * 64)).code == (
        "GM_RUNNER_APPROVAL_MISMATCH"
    )
    assert _code(lambda: later.approve(again, approve_plan="0" * 64)).code == (
        "GM_RUNNER_APPROVAL_MISMATCH"
    )
    both = _code(lambda: later.approve(again, approve_plan="a", approve_manifest="b"))
    assert both.code == "GM_USAGE"


def test_run_probes_once_then_delivers(
    session_for: Callable[[Path], RunnerSession], fake_runner: FakeRunner
) -> None:
    script = fake_runner("conformant")
    session = session_for(script)
    stdin = b'{"taskId": "extract-1"}'
    plan = session.plan("extraction", "extract-1", stdin)
    assert _code(lambda: session.run(plan, stdin)).code == "GM_RUNNER_PLAN_NOT_APPROVED"
    assert spawn_count(script) == 0  # no probe for an unapproved plan
    (approved,) = session.approve([plan], approve_plan=plan.plan_digest)
    assert json.loads(session.run(approved, stdin))["receivedBytes"] == len(stdin)
    assert spawn_count(script) == 3  # --version, probe, delivery
    other = session.plan("extraction", "extract-2", b"next")
    (second,) = session.approve([other], ask=lambda question, details: True)
    session.run(second, b"next")
    assert spawn_count(script) == 4  # the record was reused


def test_refusing_runner_never_receives_the_task(
    session_for: Callable[[Path], RunnerSession], fake_runner: FakeRunner
) -> None:
    script = fake_runner("file-reading")
    session = session_for(script)
    plan = session.plan("extraction", "extract-1", b"secret transcript")
    (approved,) = session.approve([plan], approve_plan=plan.plan_digest)
    # It tried to write outside its directory (contained): refused for trying.
    refused = _code(lambda: session.run(approved, b"secret transcript"))
    assert refused.code == "GM_RUNNER_NONCONFORMANT"
    tried = [f["detail"] for f in refused.details["failures"] if f["code"] == refused.code]
    assert len(tried) == 1
    assert tried[0].endswith("/decoy/escape.txt: stopped by allow-list root")
    assert spawn_count(script) == 2  # --version and the probe; the task never went out
    assert session.ledger.delivery_state(plan.plan_digest or "") is None
    # Until it passes again, it is not even started: the refusal is remembered.
    again = _code(lambda: session.run(approved, b"secret transcript"))
    assert again.code == "GM_RUNNER_NONCONFORMANT"
    assert "reverify-runner" in (again.hint or "")
    assert spawn_count(script) == 2


def test_a_runner_that_tries_while_answering_is_refused_and_its_answer_dropped(
    session_for: Callable[[Path], RunnerSession], fake_runner: FakeRunner, tmp_path: Path
) -> None:
    script = fake_runner("trying")  # conformant while nothing is listed beside it
    session = session_for(script)
    first = session.plan("extraction", "extract-1", b"first")
    (approved,) = session.approve([first], approve_plan=first.plan_digest)
    assert json.loads(session.run(approved, b"first"))["receivedBytes"] == len(b"first")
    # Then it starts to pry while it answers.
    target = tmp_path / "elsewhere" / "notes.txt"
    target.parent.mkdir()
    script.with_suffix(".targets").write_text(json.dumps({"write": [str(target)]}))
    second = session.plan("extraction", "extract-2", b"second")
    (approved,) = session.approve([second], approve_plan=second.plan_digest)
    refused = _code(lambda: session.run(approved, b"second"))
    assert refused.code == "GM_RUNNER_NONCONFORMANT"
    assert refused.details["attempts"] == [f"write {target}: stopped by allow-list root"]
    assert not target.exists()
    assert session.ledger.delivery_state(second.plan_digest or "") == "failed"
    # Not started again until it passes conformance again.
    spawned = spawn_count(script)
    third = session.plan("extraction", "extract-3", b"third")
    (approved,) = session.approve([third], approve_plan=third.plan_digest)
    assert _code(lambda: session.run(approved, b"third")).code == "GM_RUNNER_NONCONFORMANT"
    assert spawn_count(script) == spawned
