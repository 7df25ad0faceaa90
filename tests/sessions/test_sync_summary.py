"""`sessions sync` says what happened; the zero counts only with `--verbose` (issue 45)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.repos import Repo
from tests.sessions.test_sync_incremental import OLD
from tests.sessions.transcripts import append_jsonl, claude_path, claude_turn, write_jsonl


def _sync(gm: Any, repo: Repo, *flags: str) -> str:
    result = gm(["sessions", "sync", *flags], cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    return str(result.stdout).strip()


def test_the_summary_names_what_happened_and_verbose_every_count(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    cwd = str(repo.root)
    path = write_jsonl(
        claude_path(hermetic_env["claude"], "s1"), claude_turn("first", "a1", cwd, "m1"), OLD
    )
    write_jsonl(claude_path(hermetic_env["claude"], "s2"), claude_turn("other", "b1", cwd, "n1"))
    assert _sync(gm, repo) == "synced 2 files: 2 new; 2 turns added"
    assert _sync(gm, repo) == "synced 2 files: 2 unchanged; no new turns"
    append_jsonl(path, claude_turn("more", "a2", cwd, "m2"), OLD)
    assert _sync(gm, repo) == "synced 2 files: 1 resumed, 1 unchanged; 1 turn added"
    verbose = _sync(gm, repo, "--verbose").splitlines()
    assert verbose == [
        "synced: 2 files seen, 0 new, 0 resumed, 0 re-read, 2 unchanged, 0 removed,"
        " 0 excluded (subagents, duplicates)",
        "turns added: 0",
    ]
    path.unlink()
    assert (
        _sync(gm, repo, "-v")
        .splitlines()[0]
        .endswith("1 removed, 0 excluded (subagents, duplicates)")
    )
    assert _sync(gm, repo) == "synced 1 file: 1 unchanged; no new turns"


def test_rebuild_says_what_it_read_and_takes_verbose(
    gm: Any, repo: Repo, hermetic_env: dict[str, Path]
) -> None:
    write_jsonl(
        claude_path(hermetic_env["claude"], "s1"),
        claude_turn("first", "a1", str(repo.root), "m1"),
        OLD,
    )
    rebuilt = gm(["sessions", "rebuild"], cwd=repo.root)
    assert rebuilt.exit_code == 0, rebuilt.stderr
    assert rebuilt.stdout.strip() == "rebuilt 1 file: 1 new; 1 turn added"
    verbose = gm(["sessions", "rebuild", "--verbose"], cwd=repo.root)
    assert verbose.stdout.startswith("rebuilt: 1 files seen, 1 new, 0 resumed")
