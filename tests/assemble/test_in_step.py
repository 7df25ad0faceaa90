"""The agents' files stay in step with approved memory, or say so (docs/guide-context.md,
"In step"): a promote and a retire bring them up to date inside the approved plan, and after
a `git pull` brings a teammate's entry, status, doctor and context say which file is behind
and what to run. End to end, in real repositories."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from git_memory.assemble.block import BEGIN_MARKER
from tests.agent_memory.conftest import BUILDERS, Project, project, review_and_promote
from tests.assemble.test_assemble_command import write_entry
from tests.conftest import run_cli
from tests.repos import Repo, git

PHRASE = "make dev"  # what the CLAUDE.local.md store holds (tests/fixtures/agent-memory)
AGENT_FILES = ["CLAUDE.md", "AGENTS.md"]
__all__ = ["project"]  # the fixture, used by name


def _changed(repo: Repo) -> set[str]:
    lines = repo.git("status", "--porcelain", "--untracked-files=all").splitlines()
    return {line[3:] for line in lines}


def _promoted_from_store(project: Project) -> dict[str, Any]:
    """One store's items harvested, reviewed and promoted; the plan that was applied."""
    build, _ = BUILDERS["claude-local"]
    build(project)
    assert project.gm("harvest")[0] == 0
    return review_and_promote(project)


def test_promote_and_retire_bring_the_agents_files_up_to_date_in_the_plan(
    project: Project,
) -> None:
    code, first = project.gm("assemble")
    assert code == 0, first
    project.repo.commit_all("assembled")
    for name in AGENT_FILES:
        assert PHRASE not in (project.root / name).read_text()
    applied = _promoted_from_store(project)
    assert [f"  {name} (brought up to date)" for name in AGENT_FILES] == [
        note for note in applied["notes"] if "brought up to date" in note
    ]
    for name in AGENT_FILES:
        assert PHRASE in (project.root / name).read_text(), name
    # Nothing but the memory files and the agents' files the plan listed changed.
    changed = _changed(project.repo) - {"CLAUDE.local.md"}
    assert {p for p in changed if not p.startswith(".memory/")} == set(AGENT_FILES)
    project.repo.commit_all("promoted")

    entry_id = next(
        p.stem for p in (project.root / ".memory/entries").glob("*.md") if PHRASE in p.read_text()
    )
    code, plan = project.gm("retire", entry_id, "--reason", "the stack starts differently now")
    assert code == 0, plan
    assert plan["agentFiles"] == AGENT_FILES, "the plan lists the files it brings up to date"
    promoted = run_cli(
        ["promote", "--plan", plan["planId"], "--approve", plan["planDigest"]], cwd=project.root
    )
    assert promoted.exit_code == 0, promoted.stderr
    assert "  CLAUDE.md (brought up to date)\n  AGENTS.md (brought up to date)" in promoted.stdout
    assert "git memory assemble" not in promoted.stdout, "no step left to update them"
    for name in AGENT_FILES:
        assert PHRASE not in (project.root / name).read_text(), name
    assert {p for p in _changed(project.repo) if not p.startswith(".memory/")} == set(AGENT_FILES)
    code, status = project.gm("status")
    assert code == 0
    assert status["counts"]["agentFiles"] == {"behind": []}


def test_a_plan_without_assembled_files_writes_none(project: Project) -> None:
    applied = _promoted_from_store(project)
    assert not [note for note in applied["notes"] if "brought up to date" in note]
    assert not (project.root / "CLAUDE.md").exists()
    assert not (project.root / "AGENTS.md").exists()


def _clone(origin: Repo, path: Path) -> Repo:
    git(origin.root.parent, "clone", "-q", str(origin.root), str(path))
    return Repo(path)


def test_a_pull_that_brings_a_teammates_entry_is_reported_until_assembled(
    project: Project, tmp_path: Path
) -> None:
    team = project.repo
    write_entry(team, "queue", "The nightly job restarts the queue at 04:00 UTC.")
    assert run_cli(["assemble"], cwd=team.root).exit_code == 0
    team.commit_all("memory and the agents' files")
    mine = _clone(team, tmp_path / "mine")
    assert run_cli(["assemble"], cwd=mine.root).exit_code == 0
    assert _changed(mine) == set(), "the committed files are what assemble writes"

    fact = "Release notes are drafted from the merged pull requests' titles."
    write_entry(team, "release-notes", fact)
    team.git("add", ".memory")
    team.git("commit", "-q", "-m", "a teammate's entry, written by hand")
    mine.git("pull", "-q")
    assert fact not in (mine.root / "CLAUDE.md").read_text()

    status = run_cli(["status"], cwd=mine.root)
    assert status.exit_code == 0, status.stderr
    behind = "CLAUDE.md, AGENTS.md are behind approved memory; run: git memory assemble"
    assert behind in status.stdout
    doctor = run_cli(["doctor", "--format", "json"], cwd=mine.root)
    (check,) = [c for c in doctor.json()["checks"] if c["name"] == "agent files"]
    assert check["status"] == "warn"
    assert check["detail"] == behind
    context = run_cli(["context"], cwd=mine.root)
    assert context.exit_code == 0, context.stderr
    assert fact in context.stdout
    assert "note: CLAUDE.md is behind approved memory; run: git memory assemble" in context.stdout

    assert run_cli(["assemble"], cwd=mine.root).exit_code == 0
    assert fact in (mine.root / "CLAUDE.md").read_text()
    assert behind not in run_cli(["status"], cwd=mine.root).stdout
    assert "behind" not in run_cli(["context"], cwd=mine.root).stdout
    doctor = run_cli(["doctor", "--format", "json"], cwd=mine.root)
    (check,) = [c for c in doctor.json()["checks"] if c["name"] == "agent files"]
    assert check == {**check, "status": "ok"}
    assert (mine.root / "CLAUDE.md").read_text().count(BEGIN_MARKER) == 1
