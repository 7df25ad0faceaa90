"""This machine's indexed session ids never reach a commit, whatever the words around them."""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

import pytest

from git_memory.formats.entry import Entry, serialize_entry
from tests.conftest import run_cli
from tests.extract.conftest import SampleRepo, build_sample_repo
from tests.hooks.conftest import commit, head
from tests.hooks.test_lint_fast_path import NEVER_LOADED, _fast

ENTRY = ".memory/entries/resume-the-work.md"


def _indexed_ids(state: Path) -> list[str]:
    with sqlite3.connect(state / "sessions.sqlite3") as conn:
        return [str(row[0]) for row in conn.execute("SELECT session_id FROM sessions")]


def _stage_resume_note(sample_repo: SampleRepo, session_id: str) -> None:
    """A hand-written entry: the id sits in a command, no "session" or "agent" word near it."""
    body = f"To pick the deploy work up again run `claude --resume {session_id}` first.\n"
    sample_repo.repo.write(ENTRY, serialize_entry(Entry(id="resume-the-work", body=body)))
    assert run_cli(["reindex"], cwd=sample_repo.root).exit_code in (0, 1)
    sample_repo.repo.git("add", "-A")


def _setup(tmp_path: Path, hermetic_env: dict[str, Path]) -> tuple[SampleRepo, str]:
    sample_repo = build_sample_repo(tmp_path, hermetic_env)
    assert run_cli(["init"], cwd=sample_repo.root).exit_code == 0
    assert run_cli(["hooks", "install"], cwd=sample_repo.root).exit_code == 0
    uuids = [i for i in _indexed_ids(hermetic_env["state"]) if len(i) == 36]
    assert uuids, "the sample transcripts are indexed"
    return sample_repo, uuids[0]


def test_an_indexed_session_id_is_blocked_by_lint_and_the_hook(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample_repo, session_id = _setup(tmp_path, hermetic_env)
    _stage_resume_note(sample_repo, session_id.upper())  # case does not hide it

    linted = run_cli(["lint"], cwd=sample_repo.root)
    assert linted.exit_code == 1, linted.stdout
    assert f"{ENTRY}:" in linted.stdout
    assert "BLOCK GM_LINT_PROVIDER_SESSION_ID this machine's session id" in linted.stdout
    assert session_id not in linted.stdout.lower()  # the excerpt never repeats it

    staged = run_cli(["lint", "--staged"], cwd=sample_repo.root)
    assert staged.exit_code == 1
    assert "this machine's session id (from the session index)" in staged.stdout

    before = head(sample_repo.repo)
    stopped = commit(sample_repo.repo)
    assert stopped.returncode != 0, stopped.stdout + stopped.stderr
    assert "GM_LINT_PROVIDER_SESSION_ID" in stopped.stderr
    assert ENTRY in stopped.stderr
    assert head(sample_repo.repo) == before


def test_an_id_that_is_not_indexed_passes(tmp_path: Path, hermetic_env: dict[str, Path]) -> None:
    sample_repo, session_id = _setup(tmp_path, hermetic_env)
    other = str(uuid.UUID(int=uuid.UUID(session_id).int ^ 1))
    assert other not in _indexed_ids(hermetic_env["state"])
    _stage_resume_note(sample_repo, other)

    linted = run_cli(["lint"], cwd=sample_repo.root)
    assert "GM_LINT_PROVIDER_SESSION_ID" not in linted.stdout, linted.stdout
    assert linted.exit_code == 0, linted.stdout
    before = head(sample_repo.repo)
    committed = commit(sample_repo.repo)
    assert committed.returncode == 0, committed.stdout + committed.stderr
    assert head(sample_repo.repo) != before


def test_an_unreadable_index_stops_the_commit(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample_repo, _ = _setup(tmp_path, hermetic_env)
    _stage_resume_note(sample_repo, str(uuid.uuid4()))
    _corrupt_index(hermetic_env["state"])

    before = head(sample_repo.repo)
    stopped = commit(sample_repo.repo)
    assert stopped.returncode != 0
    assert "GM_SESSIONS_INDEX_UNREADABLE" in stopped.stderr
    assert head(sample_repo.repo) == before


def _corrupt_index(state: Path) -> None:
    database = state / "sessions.sqlite3"
    for suffix in ("-wal", "-shm"):
        Path(str(database) + suffix).unlink(missing_ok=True)
    database.write_bytes(b"not a database" * 512)


def test_a_commit_without_memory_files_never_opens_the_index(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample_repo = build_sample_repo(tmp_path, hermetic_env)
    assert run_cli(["hooks", "install"], cwd=sample_repo.root).exit_code == 0
    _corrupt_index(hermetic_env["state"])
    sample_repo.repo.write("src/app.py", "print('app, again')\n")
    sample_repo.repo.git("add", "-A")
    committed = commit(sample_repo.repo)
    assert committed.returncode == 0, committed.stdout + committed.stderr


def test_the_hook_finds_the_index_through_memory_home(
    tmp_path: Path, hermetic_env: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    sample_repo, session_id = _setup(tmp_path, hermetic_env)
    monkeypatch.delenv("GIT_MEMORY_HOME")
    sample_repo.repo.git("config", "memory.home", str(hermetic_env["state"]))
    _stage_resume_note(sample_repo, session_id)
    before = head(sample_repo.repo)
    stopped = commit(sample_repo.repo)
    assert stopped.returncode != 0
    assert "this machine's session id (from the session index)" in stopped.stderr
    assert head(sample_repo.repo) == before

    sample_repo.repo.git("config", "memory.home", "state")
    refused = commit(sample_repo.repo)
    assert refused.returncode != 0
    assert "GM_STATE_HOME_RELATIVE" in refused.stderr
    assert head(sample_repo.repo) == before


def test_the_fast_path_reads_the_index_without_pydantic_click_or_pygit2(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample_repo, session_id = _setup(tmp_path, hermetic_env)
    _stage_resume_note(sample_repo, session_id)
    fast = _fast(sample_repo.repo, NEVER_LOADED)  # the finding proves the index was read
    assert fast.returncode == 1, fast.stdout + fast.stderr
    assert "this machine's session id (from the session index)" in fast.stdout
    assert "LOADED []" in fast.stderr
