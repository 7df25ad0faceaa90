"""The real agent CLIs (`claude`, `codex`, `gemini`, `qwen`, `copilot`) against a scripted model on
127.0.0.1.

A test marked `realcli("<cli>")` runs only when that CLI is on PATH;
otherwise it is deselected (never skipped or passed) and the run ends with a note naming the
missing CLI, so a green run without the clients cannot be mistaken for one with them. The run
also ends with the version of each client that ran.

A test that takes the `claude_bin` fixture runs once with the `claude` on PATH and once more
with the one `GIT_MEMORY_TEST_CLAUDE_OLDEST` names (`.ci/run` installs Claude Code 2.1.197,
the oldest supported, there).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT

HERE = Path(__file__).resolve().parent
OLDEST_CLAUDE = "GIT_MEMORY_TEST_CLAUDE_OLDEST"
_MISSING: dict[str, list[str]] = {}
# The executables the selected tests run, by CLI name.
_RUNNING: dict[str, list[str]] = {}


@functools.cache
def cli_version(executable: str) -> str:
    """What `EXECUTABLE --version` prints (its first line), or why it printed nothing."""
    try:
        shown = subprocess.run(
            [executable, "--version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"unusable: {error}"
    lines = (shown.stdout or shown.stderr).strip().splitlines()
    return lines[0] if lines else f"no version (exit status {shown.returncode})"


def claude_binaries() -> list[str]:
    """The Claude Code executables to run: `claude` on PATH, then the oldest supported one."""
    found = [path for path in (shutil.which("claude"), os.environ.get(OLDEST_CLAUDE)) if path]
    return found or ["claude"]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """One run of a `claude_bin` test per Claude Code executable, named by its version."""
    if "claude_bin" in metafunc.fixturenames:
        binaries = claude_binaries()
        ids = [cli_version(path).split()[0] for path in binaries]
        metafunc.parametrize("claude_bin", binaries, ids=ids)


def _missing_cli(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("realcli")
    if marker is None or HERE not in Path(str(item.path)).parents:
        return None
    cli = str(marker.args[0])
    return cli if shutil.which(cli) is None else None


# Before any other conftest's selection hook (tests/runners deselects `realcli` tests too):
# the note needs to see these tests.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the tests of a CLI that is not installed, and remember why."""
    dropped = []
    for item in items:
        cli = _missing_cli(item)
        if cli is not None:
            _MISSING.setdefault(cli, []).append(item.nodeid)
            dropped.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in dropped]


def pytest_collection_finish(session: pytest.Session) -> None:
    """Remember the client executables the selected real-client tests run."""
    for item in session.items:
        marker = item.get_closest_marker("realcli")
        if marker is None or HERE not in Path(str(item.path)).parents:
            continue
        cli = str(marker.args[0])
        callspec = getattr(item, "callspec", None)
        executable = callspec.params.get("claude_bin") if callspec is not None else None
        path = executable or shutil.which(cli) or cli
        running = _RUNNING.setdefault(cli, [])
        if path not in running:
            running.append(path)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say which clients the real-client tests ran, and which did not run and why."""
    for cli, paths in sorted(_RUNNING.items()):
        for path in paths:
            terminalreporter.write_line(f"realcli: {cli} {cli_version(path)} ({path})")
    for cli, nodeids in sorted(_MISSING.items()):
        terminalreporter.write_line(
            f"note: {len(nodeids)} realcli test(s) deselected: `{cli}` is not on PATH "
            "(CI installs it with npm; see .ci/run)",
            yellow=True,
        )


@pytest.fixture
def entry_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH directory whose `git-memory` runs this checkout as the console script does."""
    directory = tmp_path / "bin"
    directory.mkdir()
    script = directory / "git-memory"
    script.write_text(
        f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(PROJECT_ROOT)!r})\n"
        "from git_memory.cli.entry import main\nraise SystemExit(main())\n"
    )
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{directory}{os.pathsep}{os.environ['PATH']}")
    return directory
