"""Hermetic test environment: no test reads or writes the real home, config or transcripts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import settings

from git_memory.store.db import StateDB
from tests.repos import Repo, make_repo

PROJECT_ROOT = Path(__file__).resolve().parent.parent
FIXTURES = PROJECT_ROOT / "tests" / "fixtures"  # every file a test reads; see its PROVENANCE.md
REAL_HOME = Path(os.path.expanduser("~")).resolve()

# Hypothesis fails an example that takes longer than its default deadline (200 ms): a speed
# assertion that a busy machine breaks. The suite's profile has none (tests/waiting.py).
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
AGENT_HOMES = {
    "gemini": "GEMINI_CLI_HOME",
    "qwen": "QWEN_RUNTIME_DIR",
    "xdg_data": "XDG_DATA_HOME",
    "copilot": "COPILOT_HOME",
    "cursor": "CURSOR_CONFIG_DIR",
    "antigravity": "ANTIGRAVITY_HOME",
}


@pytest.fixture(autouse=True)
def hermetic_env(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[dict[str, Path]]:
    """Point every home/config variable at fresh temp dirs and strip inherited GIT_*."""
    base = tmp_path_factory.mktemp("env")
    dirs = {name: base / name for name in ("home", "state", "claude", "codex", "xdg")}
    for directory in dirs.values():
        directory.mkdir()
    dirs["state"].chmod(0o700)  # as git memory itself would create it
    global_config = dirs["home"] / ".gitconfig"
    global_config.write_text("[init]\n\tdefaultBranch = main\n")
    for key in list(os.environ):
        if key.startswith("GIT_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("HOME", str(dirs["home"]))
    monkeypatch.setenv("GIT_MEMORY_HOME", str(dirs["state"]))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(dirs["claude"]))
    monkeypatch.setenv("CODEX_HOME", str(dirs["codex"]))
    monkeypatch.setenv("XDG_STATE_HOME", str(dirs["xdg"]))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(dirs["xdg"]))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(global_config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    # The other agents' history homes (docs/sessions.md), each its own temp dir.
    for name, variable in AGENT_HOMES.items():
        dirs[name] = base / name
        dirs[name].mkdir()
        monkeypatch.setenv(variable, str(dirs[name]))
    yield dirs
    assert Path(os.environ["HOME"]).resolve() != REAL_HOME


@pytest.fixture
def db(tmp_path: Path) -> Iterator[StateDB]:
    """A fresh memory-state database in the test's directory, closed when the test ends."""
    database = StateDB(tmp_path / "m.sqlite3")
    yield database
    database.close()


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    """A real temporary git repository with one commit."""
    return make_repo(tmp_path / "repo")


@dataclass
class CliResult:
    """Outcome of one `git memory` invocation."""

    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        """stdout parsed as JSON."""
        return json.loads(self.stdout)


def run_cli(args: list[str], cwd: Path | None = None, input_text: str | None = None) -> CliResult:
    """Run `git memory ARGS` in-process through the real entry point (exit codes included)."""
    from git_memory.cli.errors import run_guarded
    from git_memory.cli.main import cli

    runner = CliRunner()
    previous = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        import git_memory.output as output_module

        output_module.enable_json_errors(False)
        outcome: dict[str, int] = {}

        def entry() -> None:
            outcome["code"] = run_guarded(cli, args)

        result = runner.invoke(_as_command(entry), [], input=input_text, catch_exceptions=False)
    finally:
        os.chdir(previous)
    return CliResult(outcome.get("code", result.exit_code), result.stdout, result.stderr)


def _as_command(entry: Any) -> Any:
    import click

    @click.command()
    def wrapper() -> None:
        entry()

    return wrapper


@pytest.fixture
def gm() -> Any:
    """`gm(["status"], cwd=repo.root)` runs the CLI in-process."""
    return run_cli


def run_subprocess(
    args: list[str],
    cwd: Path,
    input_bytes: bytes | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run `python -m git_memory ARGS` as a real subprocess with this checkout on sys.path."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = str(PROJECT_ROOT) + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "git_memory", *args],
        cwd=cwd,
        env=full_env,
        input=input_bytes.decode() if input_bytes is not None else None,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.fixture
def gm_proc() -> Any:
    """`gm_proc(["status"], cwd=...)` runs the CLI as a real subprocess."""
    return run_subprocess


@pytest.fixture
def bin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH directory with a `git-memory` executable that runs this checkout."""
    directory = tmp_path / "bin"
    directory.mkdir()
    script = directory / "git-memory"
    script.write_text(
        f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(PROJECT_ROOT)!r})\n"
        "from git_memory.cli.main import main\nraise SystemExit(main())\n"
    )
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{directory}{os.pathsep}{os.environ['PATH']}")
    return directory


def resolve_cli_command(path: tuple[str, ...]) -> Any:
    """The click command `git memory PATH…` resolves to, or None."""
    import click

    from git_memory.cli.main import cli

    ctx = click.Context(cli, info_name="git memory")
    command: Any = cli
    for word in path:
        if not isinstance(command, click.Group):
            return None
        command = command.get_command(ctx, word)
        if command is None:
            return None
        ctx = click.Context(command, info_name=word, parent=ctx)
    return command


def run_quick_bench(
    script: str, *, timeout: float = 120, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Run `tests/perf/SCRIPT --quick` as its own process, as a plain file; its JSON line.

    Each benchmark keeps running in the suite this way, so none can rot unnoticed.
    """
    # As a person runs it: a plain file, from elsewhere, with no PYTHONPATH pointing here.
    plain = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    result = subprocess.run(
        [sys.executable, str(PROJECT_ROOT / "tests" / "perf" / script), "--quick"],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=tempfile.gettempdir(),
        env=env if env is not None else plain,
    )
    assert result.returncode == 0, result.stderr
    (line,) = result.stdout.splitlines()
    figures: dict[str, Any] = json.loads(line)
    return figures
