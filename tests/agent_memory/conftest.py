"""A repository with `init` done, and each agent's store built from tests/fixtures/agent-memory."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from git_memory.agent_memory.stores import project_slug
from tests.conftest import FIXTURES, run_cli
from tests.repos import Repo, make_repo

STORE_FIXTURES = FIXTURES / "agent-memory"


@dataclass
class Project:
    """The repository and the sandboxed homes its stores live in."""

    repo: Repo
    homes: dict[str, Path]

    @property
    def root(self) -> Path:
        """The worktree root."""
        return self.repo.root

    def gm(self, *args: str) -> tuple[int, Any]:
        """Run `git memory ARGS --format json` here: (exit code, parsed output)."""
        result = run_cli([*args, "--format", "json"], cwd=self.root)
        return result.exit_code, result.json() if result.stdout.strip() else {}


@pytest.fixture
def project(tmp_path: Path, hermetic_env: dict[str, Path]) -> Project:
    """A fresh repository whose memory root exists."""
    repo = make_repo(tmp_path / "app")
    assert run_cli(["init"], cwd=repo.root).exit_code == 0
    repo.commit_all("memory root")
    return Project(repo, hermetic_env)


def _copy(source: str, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(STORE_FIXTURES / source, target)
    return target


def claude_auto(project: Project) -> Path:
    """Claude Code's auto memory of the project, in the sandboxed CLAUDE_CONFIG_DIR."""
    folder = project.homes["claude"] / "projects" / project_slug(project.root.resolve()) / "memory"
    _copy("claude-auto-memory/MEMORY.md", folder / "MEMORY.md")
    _copy("claude-auto-memory/debugging.md", folder / "debugging.md")
    return folder


def claude_agents(project: Project) -> Path:
    """A subagent's project memory in the worktree."""
    folder = project.root / ".claude" / "agent-memory" / "code-reviewer"
    _copy("claude-agent-memory/code-reviewer/MEMORY.md", folder / "MEMORY.md")
    return folder


def claude_local(project: Project) -> Path:
    """CLAUDE.local.md beside the project (git ignores it by convention), and the Makefile
    target its note names, so the approved entry verifies as fresh."""
    project.repo.write("Makefile", "dev:\n\ttrue\n")
    project.repo.commit_all("make dev")
    return _copy("CLAUDE.local.md", project.root / "CLAUDE.local.md")


def agents_override(project: Project) -> Path:
    """An untracked AGENTS.override.md."""
    return _copy("AGENTS.override.md", project.root / "AGENTS.override.md")


def gemini(project: Project) -> Path:
    """Gemini CLI's user GEMINI.md with saved memories, in the sandboxed GEMINI_CLI_HOME."""
    return _copy("gemini/GEMINI.md", project.homes["gemini"] / ".gemini" / "GEMINI.md")


def serena(project: Project) -> Path:
    """Serena's memories folder in the worktree."""
    folder = project.root / ".serena" / "memories"
    _copy("serena/7nohe__figdeck__suggested_commands.md", folder / "suggested_commands.md")
    return folder


# store name -> (builder, a phrase one of its items holds)
BUILDERS: dict[str, tuple[Callable[[Project], Path], str]] = {
    "claude-auto-memory": (claude_auto, "is frozen and only receives security fixes"),
    "claude-agent-memory": (claude_agents, "matching down migration"),
    "claude-local": (claude_local, "make dev"),
    "agents-override": (agents_override, "pnpm-lock.yaml"),
    "gemini-memories": (gemini, "scripts/release.sh"),
    "serena-memories": (serena, "`git status`/`git diff` for version control"),
}


def snapshot(path: Path) -> dict[str, bytes]:
    """Every file's bytes under `path` (or the file itself)."""
    if path.is_file():
        return {path.name: path.read_bytes()}
    return {
        str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()
    }


def review_and_promote(project: Project, only: list[str] | None = None) -> dict[str, Any]:
    """Confirm the quarantined candidates (`only` these ids when given) and promote the plan."""
    from tests.review_helpers import prepare_document

    code, review = project.gm("review")
    assert code == 0, review
    items = [i for i in review["items"] if only is None or i["candidateId"] in only]
    request = project.root.parent / "prepare.json"
    request.write_text(json.dumps(prepare_document(items)))
    code, plan = project.gm("prepare", "--request", str(request))
    if code != 0:
        return plan  # type: ignore[no-any-return]
    code, applied = project.gm("promote", "--plan", plan["planId"], "--approve", plan["planDigest"])
    assert code == 0, applied
    return applied  # type: ignore[no-any-return]
