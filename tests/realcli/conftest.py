"""The real agent CLIs (`claude`, `codex`, `gemini`, `qwen`, `copilot`) against a scripted model on
127.0.0.1.

A test marked `realcli("<cli>")` runs only when that CLI is on PATH;
otherwise it is deselected (never skipped or passed) and the run ends with a note naming the
missing CLI, so a green run without the clients cannot be mistaken for one with them.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT

HERE = Path(__file__).resolve().parent
_MISSING: dict[str, list[str]] = {}


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


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say which real-client tests did not run and why."""
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
