"""git manners: -C DIR, "did you mean", usage errors exit 2, truthful aftercare (issue 20)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.extract.conftest import SINCE, UNTIL, build_sample_repo
from tests.repos import Repo


def test_global_C_runs_as_if_started_there(repo: Repo, tmp_path: Path) -> None:
    assert run_cli(["-C", str(repo.root), "init"], cwd=tmp_path).exit_code == 0
    assert (repo.root / ".memory").is_dir()
    status = run_cli(["-C", str(repo.root.parent), "-C", repo.root.name, "status"], cwd=tmp_path)
    assert status.exit_code == 0, status.stderr
    assert status.stdout.startswith("memory root: .memory/")
    missing = run_cli(["-C", str(tmp_path / "nowhere"), "status"], cwd=tmp_path)
    assert missing.exit_code == 2
    assert "cannot change to" in missing.stderr


def test_a_mistyped_command_suggests_the_right_one(tmp_path: Path) -> None:
    result = run_cli(["stauts"], cwd=tmp_path)
    assert result.exit_code == 2
    assert "No such command 'stauts'" in result.stderr
    assert "git memory status" in result.stderr
    nested = run_cli(["sessions", "lsit"], cwd=tmp_path)
    assert nested.exit_code == 2
    assert "git memory sessions list" in nested.stderr
    nothing_close = run_cli(["zzzzzz"], cwd=tmp_path)
    assert nothing_close.exit_code == 2
    assert "most similar" not in nothing_close.stderr


def _quarantined(state: Path) -> list[tuple[str, int]]:
    db = sqlite3.connect(state / "memory-state.sqlite3")
    rows = db.execute(
        "SELECT candidate_id, revision FROM candidates WHERE status = 'quarantined'"
        " ORDER BY candidate_id"
    ).fetchall()
    db.close()
    return [(str(c), int(r)) for c, r in rows]


def test_short_ids_are_printed_and_taken_back(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    extracted = run_cli(
        ["extract", "--runner", "builtin", "--since", SINCE, "--until", UNTIL, "--limit", "8"],
        cwd=sample.root,
    )
    assert extracted.exit_code == 0, extracted.stderr
    queue = _quarantined(hermetic_env["state"])
    listed = run_cli(["review"], cwd=sample.root).stdout
    first_id = queue[0][0]
    assert first_id not in listed, "text output never prints an 80-character id"
    shown = listed.split()[0]
    assert len(shown) < 30
    assert first_id.startswith(shown.rsplit("-", 1)[0][:15])
    discarded = run_cli(["discard", shown], cwd=sample.root)  # no --revision: the current one
    assert discarded.exit_code == 0, discarded.stderr
    assert discarded.stdout.startswith(f"discarded {shown} ")
    remaining = _quarantined(hermetic_env["state"])
    (gone,) = set(queue) - set(remaining)
    assert len(remaining) == len(queue) - 1
    stem, suffix = shown.rsplit("-", 1)
    assert gone[0].startswith(stem), "review's first line"
    assert gone[0].endswith(f"-{suffix}"), "review's first line"
    ambiguous = run_cli(["discard", remaining[0][0][: len("extract-") + 5]], cwd=sample.root)
    assert ambiguous.exit_code == 2
    assert "[GM_ID_AMBIGUOUS]" in ambiguous.stderr
    unknown = run_cli(["discard", "extract-ffffffff-c9"], cwd=sample.root)
    assert unknown.exit_code == 2
    assert "[GM_CANDIDATE_NOT_FOUND]" in unknown.stderr
    assert "hint: `git memory review` lists them" in unknown.stderr
    stale = run_cli(
        ["discard", remaining[0][0], "--revision", str(remaining[0][1] + 5)], cwd=sample.root
    )
    assert stale.exit_code == 1
    assert "[GM_REVISION_CONFLICT]" in stale.stderr


def test_hooks_install_says_what_it_did_in_plain_words(gm: Any, repo: Repo) -> None:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    first = gm(["hooks", "install"], cwd=repo.root)
    assert first.exit_code == 0, first.stderr
    assert "pre-commit: installed git memory's lint hook" in first.stdout
    assert "[installed]" not in first.stdout
    assert ".gitattributes created" in first.stdout
    assert "git add .gitattributes" in first.stdout
    again = gm(["hooks", "install"], cwd=repo.root)
    assert "already installed, nothing changed" in again.stdout
    assert ".gitattributes" not in again.stdout, "nothing to say when nothing changed"
    repo.write(".gitattributes", "*.png binary\n")
    assert gm(["hooks", "uninstall"], cwd=repo.root).exit_code == 0
    changed = gm(["hooks", "install"], cwd=repo.root)
    assert ".gitattributes changed" in changed.stdout


def test_status_names_what_waits_and_the_next_command(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    assert run_cli(["init"], cwd=sample.root).exit_code == 0
    before = run_cli(["status"], cwd=sample.root).stdout
    assert "sessions: 2 sessions of this worktree indexed" in before
    assert "nothing waits; after new agent sessions: git memory extract" in before
    assert "generation" not in before
    assert "worktree key" not in before
    run_cli(
        ["extract", "--runner", "builtin", "--since", SINCE, "--until", UNTIL, "--limit", "8"],
        cwd=sample.root,
    )
    queued = len(_quarantined(hermetic_env["state"]))
    after = run_cli(["status"], cwd=sample.root).stdout
    assert f"  {queued} candidates wait for review: git memory review" in after


def test_demo_says_how_to_keep_what_it_built(tmp_path: Path) -> None:
    result = run_cli(["demo"], cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    assert "git memory demo --keep DIR" in result.stdout


def test_sessions_list_and_show_read_like_git(
    tmp_path: Path, hermetic_env: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    sample = build_sample_repo(tmp_path, hermetic_env)
    monkeypatch.setenv("COLUMNS", "200")
    listed = run_cli(["sessions", "list"], cwd=sample.root).stdout.splitlines()
    assert listed[0].split()[:5] == ["SESSION", "DATE", "PROVIDER", "TURNS", "FIRST"]
    assert "2026-11-20 09:00  claude-code  5 turns (5 sealed)" in listed[1]
    assert listed[1].endswith("Run the test suite and tell me if anything fails.")
    monkeypatch.setenv("COLUMNS", "90")
    narrow = run_cli(["sessions", "list"], cwd=sample.root).stdout.splitlines()
    assert max(len(line) for line in narrow[1:]) <= 90
    assert narrow[1].endswith("…"), "a long prompt is cut to the terminal width"
    key = listed[1].split()[0]
    shown = run_cli(["sessions", "show", key], cwd=sample.root)
    assert shown.exit_code == 0, shown.stderr
    tool_lines = [line for line in shown.stdout.splitlines() if line.startswith("  tool ")]
    assert tool_lines
    assert any("uv run pytest -q" in line for line in tool_lines), tool_lines
    unknown = run_cli(["sessions", "show", "f" * 64], cwd=sample.root)
    assert unknown.exit_code == 2
    assert "GM_SESSION_NOT_FOUND" in unknown.stderr
