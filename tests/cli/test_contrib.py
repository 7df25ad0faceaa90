"""contrib/: completion scripts are current and work; the aliases resolve."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from git_memory.cli.completion import DIRECTORY, FILES, render
from git_memory.formats.entry import Entry, serialize_entry
from tests.conftest import PROJECT_ROOT
from tests.repos import Repo


@pytest.mark.parametrize("shell", sorted(FILES))
def test_completion_scripts_are_current(shell: str) -> None:
    shipped = (PROJECT_ROOT / DIRECTORY / FILES[shell]).read_text(encoding="utf-8")
    assert shipped == render(shell), "run: python -m git_memory.cli.completion"


def test_bash_completes_git_memory_subcommands(bin_dir: Path, repo: Repo) -> None:
    if shutil.which("bash") is None:
        pytest.fail("bash is needed for this test")
    script = PROJECT_ROOT / DIRECTORY / FILES["bash"]
    program = (
        f"source {script}\n"
        "words=(git memory se); cword=2; COMPREPLY=(); _git_memory\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
        "COMP_WORDS=(git-memory sessions s); COMP_CWORD=2; COMPREPLY=()\n"
        "_git_memory_completion git-memory\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    result = subprocess.run(
        ["bash", "-c", program], cwd=repo.root, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.split()
    assert {"search", "sessions"} <= set(lines)
    assert {"show", "sync"} <= set(lines)


def test_gitconfig_aliases_run(bin_dir: Path, repo: Repo) -> None:
    repo.git("config", "include.path", str(PROJECT_ROOT / "contrib" / "gitconfig"))
    result = subprocess.run(
        ["git", "mem", "status", "--format", "json"],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert '"git-memory-status@v1"' in result.stdout
    lint = subprocess.run(
        ["git", "memlint"], cwd=repo.root, capture_output=True, text=True, check=False
    )
    assert lint.returncode == 0, lint.stderr


def test_fish_loader_gets_the_installed_clicks_script(bin_dir: Path, repo: Repo) -> None:
    from click.shell_completion import get_completion_class

    from git_memory.cli.main import cli

    env = {**os.environ, "_GIT_MEMORY_COMPLETE": "fish_source"}
    source = subprocess.run(
        ["git-memory"], cwd=repo.root, env=env, capture_output=True, text=True, check=False
    )
    fish = get_completion_class("fish")
    assert fish is not None
    expected = fish(cli, {}, "git-memory", "_GIT_MEMORY_COMPLETE").source()
    assert source.stdout.strip() == expected.strip()
    # The loader line in the shipped file is what fish runs at start-up.
    shipped = (PROJECT_ROOT / DIRECTORY / FILES["fish"]).read_text(encoding="utf-8")
    assert "env _GIT_MEMORY_COMPLETE=fish_source git-memory | source" in shipped
    env.update(_GIT_MEMORY_COMPLETE="fish_complete", COMP_WORDS="git-memory se", COMP_CWORD="se")
    reply = subprocess.run(
        ["git-memory"], cwd=repo.root, env=env, capture_output=True, text=True, check=False
    )
    assert any(line.startswith("plain,sessions") for line in reply.stdout.splitlines())


def test_ci_workflow_fails_on_a_stale_index(bin_dir: Path, repo: Repo) -> None:
    workflow = (PROJECT_ROOT / "contrib" / "ci" / "github-workflow.yml").read_text()
    step = workflow.split("- name: index.json is current\n", 1)[1].split("\n", 1)[0]
    command = step.strip().removeprefix("run: ")
    assert command == "git memory reindex --check"
    subprocess.run(["git-memory", "init"], cwd=repo.root, check=True, capture_output=True)

    def step_status() -> int:
        step = subprocess.run(
            ["sh", "-c", command], cwd=repo.root, capture_output=True, check=False
        )
        return step.returncode

    assert step_status() == 0
    entry = repo.root / ".memory" / "entries" / "deploy-notes.md"
    entry.write_text(serialize_entry(Entry(id="deploy-notes", body="Deploy with make.\n")))
    assert step_status() == 1  # lint only warns here (GM_INDEX_STALE); the step must fail
    subprocess.run(["git-memory", "reindex"], cwd=repo.root, check=True, capture_output=True)
    assert step_status() == 0
