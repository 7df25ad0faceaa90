"""`git_memory.cli.entry.main(argv) -> int`: the status is returned, the console script exits."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from git_memory.cli.entry import main
from git_memory.errors import EXIT_USAGE
from tests.conftest import PROJECT_ROOT


def test_main_returns_the_status_of_each_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-h"]) == 0  # the fast root help
    assert "usage: git memory" in capsys.readouterr().out.lower()
    assert main(["no-such-command"]) == EXIT_USAGE  # the click tree
    assert "No such command 'no-such-command'" in capsys.readouterr().err


def test_a_hook_shim_up_to_v4_still_gets_the_status() -> None:
    # Shims installed before v5 run `main()` from `python -c` and drop what it returns.
    launcher = "from git_memory.cli.entry import main\nmain()\n"
    done = subprocess.run(
        [sys.executable, "-c", launcher, "no-such-command"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
    )
    assert done.returncode == EXIT_USAGE, done.stderr
