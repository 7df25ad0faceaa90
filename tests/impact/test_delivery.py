"""An entry only in the memory root reaches no agent: a rate that moved after it landed is
not its effect and reads `not read`, until an instruction file the agents load holds it,
a session-start hook runs `git memory context`, or a session asks for the memory (issue 40)."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from git_memory.extract.builtin.renderers import render_command_fix
from git_memory.impact.delivery import Marks, flattened
from git_memory.repo.binding import discover_worktree
from git_memory.repo.file_history import file_versions
from tests.conftest import PROJECT_ROOT
from tests.impact.helpers import LANDED, days, impact_report, land, session
from tests.repos import Repo, git
from tests.sessions.transcripts import (
    claude_assistant,
    claude_path,
    claude_user,
    tool_result,
    write_jsonl,
)

TRAP = render_command_fix(
    "variant", "pytest", "ModuleNotFoundError: No module named 'app'", "uv run pytest"
)
BEFORE = days(LANDED - timedelta(days=20), 10)
AFTER = days(LANDED + timedelta(days=2), 12)


def _sessions(repo: Repo, claude: Any) -> None:
    """Five of ten sessions before hit the trap; none of twelve after do."""
    for number, when in enumerate(BEFORE):
        hit = number % 2 == 0
        runs = [("pytest", True), ("uv run pytest", False)] if hit else [("uv run pytest", False)]
        session(claude, repo, f"before-{number}", when, runs)
    for number, when in enumerate(AFTER):
        session(claude, repo, f"after-{number}", when, [("uv run pytest", False)])


def _commit(repo: Repo, when: datetime, message: str) -> None:
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    git(repo.root, "add", "-A")
    dates = {"GIT_COMMITTER_DATE": stamp, "GIT_AUTHOR_DATE": stamp}
    git(repo.root, "commit", "-q", "-m", message, env=dates)


def _land_and_assemble(repo: Repo, gm: Any) -> None:
    """Land the trap (a uv project, so it is fresh) and write the block `git memory
    assemble` writes, uncommitted."""
    repo.write("pyproject.toml", '[project]\nname = "app"\nversion = "0.1.0"\n')
    land(repo, "pytest-needs-uv", TRAP, delivered=False)
    assembled = gm(["assemble"], cwd=repo.root)
    assert assembled.exit_code == 0, assembled.stderr
    assert "uv run pytest" in (repo.root / "CLAUDE.md").read_text()


def _verdict(gm: Any, repo: Repo) -> str:
    [entry] = impact_report(gm, repo)["entries"]
    return str(entry["verdict"])


def test_an_entry_only_in_the_memory_root_reads_not_read(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    land(repo, "pytest-needs-uv", TRAP, delivered=False)
    _sessions(repo, hermetic_env["claude"])
    report = impact_report(gm, repo)
    [entry] = report["entries"]
    assert entry["verdict"] == "not read"
    assert entry["after"]["hits"] == 0, "the counts are still shown"
    assert "1 entry not read" in report["summary"]
    assert "git memory assemble" in report["summary"]
    text = gm(["impact"], cwd=repo.root).stdout
    assert text.startswith("not read"), text


def test_the_teams_own_words_in_claude_md_deliver_it(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    land(repo, "pytest-needs-uv", TRAP, delivered=False)
    (repo.root / "CLAUDE.md").write_text(
        "# Working here\n\nRun the tests with `uv run pytest`; bare `pytest` cannot import\n"
        "the app.\n"
    )
    _commit(repo, LANDED + timedelta(hours=1), "say how to run the tests")
    _sessions(repo, hermetic_env["claude"])
    assert _verdict(gm, repo) == "helped"


@pytest.mark.parametrize(
    ("committed", "verdict"),
    [(LANDED + timedelta(hours=1), "helped"), (AFTER[-1] + timedelta(days=1), "not read")],
    ids=["before the sessions after", "after every session"],
)
def test_the_block_git_memory_assemble_writes_delivers_it_once_committed(
    committed: datetime, verdict: str, repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    _land_and_assemble(repo, gm)
    _commit(repo, committed, "assemble the team memory")
    _sessions(repo, hermetic_env["claude"])
    assert _verdict(gm, repo) == verdict


def test_a_session_start_hook_in_the_project_delivers_every_entry(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    land(repo, "pytest-needs-uv", TRAP, delivered=False)
    (repo.root / ".claude").mkdir()
    shutil.copy(
        PROJECT_ROOT / "contrib" / "claude-code" / "session-start-settings.json",
        repo.root / ".claude" / "settings.json",
    )
    _commit(repo, LANDED + timedelta(hours=1), "inject the memory at session start")
    _sessions(repo, hermetic_env["claude"])
    assert _verdict(gm, repo) == "helped"


def test_a_session_that_asked_for_the_memory_had_it(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    land(repo, "pytest-needs-uv", TRAP, delivered=False)
    _sessions(repo, hermetic_env["claude"])
    cwd = str(repo.root.resolve())
    stamp = (AFTER[0] + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    call = {"type": "tool_use", "id": "toolu_ctx", "name": "mcp__git-memory__memory_context"}
    records = [
        claude_user("what do we know about the tests?", cwd, ts=stamp),
        claude_assistant([{**call, "input": {}}], cwd, "msg_ctx", ts=stamp),
        tool_result("toolu_ctx", "## Team memory …", cwd),
    ]
    for record in records:
        record.update(sessionId="asked", timestamp=stamp)
    write_jsonl(claude_path(hermetic_env["claude"], "asked"), records)
    assert _verdict(gm, repo) == "helped"


def test_marks_of_a_rule_without_code_are_its_line() -> None:
    marks = Marks.of("Never commit generated files to the repository.\n")
    assert marks.held_by(
        flattened("## Team memory\n\n- Never commit generated files to the repository.\n")
    )
    assert not marks.held_by(flattened("Commit the generated files with the change."))


def test_every_command_an_entry_names_must_be_there() -> None:
    marks = Marks.of("Run `mise run fmt` before `mise run lint`, not `mise run lint` alone.\n")
    assert marks.held_by(flattened("Always run `mise run fmt && mise run lint` before you push."))
    assert not marks.held_by(flattened("Lint with `mise run lint`."))


def test_a_rewritten_commit_counts_from_when_it_was_written(repo: Repo) -> None:
    (repo.root / "CLAUDE.md").write_text("Run `uv run pytest`.\n")
    written = "2026-03-10T12:00:00+00:00"
    git(repo.root, "add", "-A")
    env = {"GIT_AUTHOR_DATE": written, "GIT_COMMITTER_DATE": "2026-06-01T12:00:00+00:00"}
    git(repo.root, "commit", "-q", "-m", "rebased", env=env)
    versions = file_versions(discover_worktree(repo.root).repository, ["CLAUDE.md"])
    moment = datetime(2026, 3, 10, 12, 0, tzinfo=UTC).timestamp()
    assert versions["CLAUDE.md"][-1] == (int(moment), "Run `uv run pytest`.\n")


def test_a_compound_command_is_held_by_words_naming_its_steps() -> None:
    marks = Marks.of("Always run `mise run fmt && mise run lint` before committing.\n")
    assert marks.held_by(flattened("Run `mise run fmt`, then `mise run lint`, before a commit."))
    assert not marks.held_by(flattened("Run `mise run lint` before a commit."))


def test_an_instruction_file_further_down_the_tree_delivers_it(
    repo: Repo, hermetic_env: dict[str, Any], gm: Any
) -> None:
    land(repo, "pytest-needs-uv", TRAP, delivered=False)
    repo.write("services/api/AGENTS.md", "Use `uv run pytest`, never bare `pytest`.\n")
    _commit(repo, LANDED + timedelta(hours=1), "the api's agent notes")
    _sessions(repo, hermetic_env["claude"])
    assert _verdict(gm, repo) == "helped"
