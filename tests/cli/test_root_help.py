"""`git memory -h` without click: the same text click prints, and no module it does not print."""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest

from git_memory.cli.main import cli
from git_memory.cli.root_help import render_root_help
from tests.conftest import PROJECT_ROOT


@pytest.mark.parametrize("width", [50, 61, 67, 72, 78, 80, 85, 93, 98, 100])
def test_fast_help_is_what_click_prints(width: int) -> None:
    ctx = click.Context(
        cli,
        info_name="git memory",
        terminal_width=width,
        max_content_width=width,
        help_option_names=["-h", "--help"],
    )
    assert render_root_help(width) == cli.get_help(ctx)


@pytest.mark.parametrize("argv", [["-h"], ["--help"], ["help"]])
def test_help_loads_nothing_it_does_not_print(argv: list[str]) -> None:
    code = (
        "import sys\n"
        f"sys.argv = ['git-memory', *{argv!r}]\n"
        "from git_memory.cli.entry import main\n"
        "try:\n    sys.exit(main())\nexcept SystemExit as exit:\n"
        "    heavy = ('click', 'pydantic', 'mcp', 'pygit2', 'sqlite3', 'subprocess', 'json',\n"
        "             'typing')\n"
        "    loaded = sorted(m for m in sys.modules if m.split('.')[0] in heavy)\n"
        "    ours = sorted(m for m in sys.modules if m.startswith('git_memory'))\n"
        "    print('LOADED', loaded, ours, exit.code, file=sys.stderr)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "COLUMNS": "80"}
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    expected_modules = [
        "git_memory",
        "git_memory.cli",
        "git_memory.cli.entry",
        "git_memory.cli.root_help",
        "git_memory.demo",  # demo and doctor declare themselves above ops/
        "git_memory.demo.declaration",
        "git_memory.doctor",
        "git_memory.doctor.declaration",
        "git_memory.ops",
        "git_memory.ops.registry",
        "git_memory.output",
        "git_memory.records",
    ]
    assert f"LOADED [] {expected_modules} 0" in result.stderr
    real = subprocess.run(
        [sys.executable, "-m", "git_memory", "status", "--help"],
        env={**env, "PYTHONPATH": str(PROJECT_ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.startswith("Usage: git memory [OPTIONS] COMMAND [ARGS]...\n")
    assert real.stdout.startswith("Usage: git memory status [OPTIONS]")
