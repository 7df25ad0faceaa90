"""Assemble stays within bounds whatever approved memory and the agents' files hold: names of
fixed length for any scope, a limit on the files it reads, and no directory created for a
scope that names none (docs/guide-context.md, "Scoped memory")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from git_memory.assemble.freshness import no_stale_entries
from git_memory.assemble.targets import RULE_PREFIX, rule_name
from git_memory.ops import assemble as ops_assemble
from tests.assemble.test_assemble_command import write_entry, write_project_files
from tests.assemble.test_assemble_memory import block_of
from tests.repos import Repo

EVERY = "claude,codex,opencode,gemini,qwen,copilot,cursor"
# A realistic deep scope of 166 characters (issue 42, S1).
LONG_SCOPE = (
    "services/payments-gateway/internal/adapters/outbound/providers/"
    "stripe-connect-v2/webhooks/handlers/subscription-lifecycle/"
    "invoice-finalization/retry-policies/backoffs"
)


@pytest.fixture
def memory(repo: Repo, gm: Any) -> Repo:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    write_project_files(repo)
    repo.git("config", "memory.assembleTargets", EVERY)
    return repo


def _assemble(repo: Repo, gm: Any, *args: str) -> Any:
    return gm(["assemble", "--provider", "all", *args], cwd=repo.root)


def test_a_long_scope_gets_files_of_bounded_names(memory: Repo, gm: Any) -> None:
    assert len(LONG_SCOPE) == 166
    memory.write(f"{LONG_SCOPE}/README.md", "Retries.\n")
    fact = "Retry policies back off exponentially, capped at one hour."
    write_entry(memory, "deep", fact, scope=f"path:{LONG_SCOPE}")
    result = _assemble(memory, gm, "--format", "json")
    assert result.exit_code == 0, result.stderr
    scoped = [s["path"] for p in result.json()["providers"] for s in p["scoped"]]
    # AGENTS.md is read by Codex and OpenCode alike; Qwen Code and Copilot read the scoped
    # files of Codex and Claude Code (docs/guide-context.md, "Once per agent").
    assert len(scoped) == 4
    for path in scoped:
        assert len(Path(path).name.encode()) <= 100, path
        assert f"- {fact}" in block_of(memory.root / path)
    # Running again finds every file as it left it.
    again = _assemble(memory, gm, "--format", "json")
    assert again.exit_code == 0, again.stderr
    assert again.json()["changed"] is False


@pytest.mark.parametrize("scope", ["a" * 250, "é" * 120, "x/" * 100 + "y"])
def test_a_rule_file_name_is_bounded_and_one_directorys_alone(scope: str) -> None:
    name = rule_name(scope)
    assert len((RULE_PREFIX + name + ".instructions.md").encode()) <= 100
    assert rule_name(scope + "z") != name
    assert rule_name(scope) == name


def test_a_scope_naming_no_directory_is_reported_and_not_created(memory: Repo, gm: Any) -> None:
    write_entry(memory, "ghost", "The ghost service starts with `make up`.", scope="path:ghost/svc")
    result = _assemble(memory, gm)
    assert result.exit_code == 0, result.stderr
    assert not (memory.root / "ghost").exists()
    assert "ghost/svc/" in result.stdout
    assert "not a directory of the worktree" in result.stdout
    # The entry held back is named, with the command that says why (issue 45, item 11).
    assert "held back as stale: ghost\n  why: git memory verify ghost" in result.stdout


def test_a_huge_agent_file_is_refused_unread_and_nothing_is_written(memory: Repo, gm: Any) -> None:
    huge = memory.root / "AGENTS.md"
    with huge.open("wb") as sparse:  # 3 GiB on paper, no blocks on disk
        sparse.truncate(3 << 30)
    result = _assemble(memory, gm)
    assert result.exit_code == 1
    assert "[GM_FILE_TOO_LARGE]" in result.stderr
    assert "AGENTS.md is larger than" in result.stderr
    assert huge.stat().st_size == 3 << 30
    # Everything is planned before anything is written: no other agent's file either.
    assert not (memory.root / "CLAUDE.md").exists()
    assert not (memory.root / "GEMINI.md").exists()


def test_a_huge_readme_is_not_consulted_and_the_block_is_written(memory: Repo, gm: Any) -> None:
    with (memory.root / "README.md").open("wb") as sparse:
        sparse.truncate(3 << 30)
    write_entry(memory, "tests", "Run the tests before pushing.")
    result = gm(["assemble", "--provider", "claude"], cwd=memory.root)
    assert result.exit_code == 0, result.stderr
    assert "- Run the tests before pushing." in block_of(memory.root / "CLAUDE.md")


def test_a_missing_scope_directory_is_not_created_even_when_nothing_reports_it_stale(
    memory: Repo, gm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The directory may go between verify's record and the write; assemble checks again.
    monkeypatch.setattr(ops_assemble, "freshness_check", lambda: no_stale_entries)
    write_entry(memory, "ghost", "The ghost service has no state.", scope="path:ghost/svc")
    result = _assemble(memory, gm)
    assert result.exit_code == 0, result.stderr
    assert not (memory.root / "ghost").exists()
    assert "entries scoped to ghost/svc/: its scope names ghost/svc/" in result.stdout
