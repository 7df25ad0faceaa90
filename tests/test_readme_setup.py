"""README.md's set-up commands work as written where a stock Debian or Ubuntu Python
refuses `pip install` outside a virtual environment (PEP 668), and `.ci/run` runs exactly
those commands (issue 45, item 1)."""

from __future__ import annotations

import os
import runpy
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT
from tests.waiting import HANG_CEILING

# What the wheel is built from (pyproject.toml's build targets); the tests are not needed.
BUILT_FROM = ("pyproject.toml", "README.md", "git_memory", "hooks", "contrib", "share")
# pip's own words when a Python marked EXTERNALLY-MANAGED refuses an install (PEP 668).
REFUSAL = "error: externally-managed-environment"


def _commands() -> list[str]:
    script = runpy.run_path(str(PROJECT_ROOT / ".ci" / "setup_commands.py"))
    text = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    commands: list[str] = script["setup_commands"](text)
    return commands


def test_ci_runs_the_two_readme_commands_as_written() -> None:
    first, second = _commands()
    assert first.startswith("python3 -m venv .venv && . .venv/bin/activate && "), first
    assert first.endswith("git memory demo")
    assert "pip install -e '.[test]'" in second
    assert second.endswith("python3 -m pytest")
    printed = subprocess.run(
        ["bash", str(PROJECT_ROOT / ".ci" / "run"), "--commands"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert printed.stdout == f"{first}\n{second}\n", "what .ci/run runs is the README's text"
    script = (PROJECT_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'bash -e -c "$first"' in script
    assert 'bash -e -c "$second"' in script
    assert "git clone" in script, "CI runs in a lone clone"


def _debian_python(directory: Path) -> Path:
    """A `python3` that acts as a stock Debian Python does: it refuses `-m pip install`
    (pip's PEP 668 error), and runs anything else, `-m venv` included, with this
    interpreter. A virtual environment made by it has its own `python3`, which installs."""
    directory.mkdir()
    real = Path(getattr(sys, "_base_executable", sys.executable))
    wrapper = directory / "python3"
    wrapper.write_text(
        "#!/bin/sh\n"
        'if [ "$1 $2 $3" = "-m pip install" ]; then\n'
        f"  echo '{REFUSAL}' >&2\n"
        "  echo 'To install Python packages system-wide, try apt install python3-xyz.' >&2\n"
        "  exit 1\n"
        "fi\n"
        f'exec "{real}" "$@"\n'
    )
    wrapper.chmod(0o755)
    return directory


def _installed_dependencies(directory: Path) -> Path:
    """This environment's installed distributions but this project itself: what the new
    virtual environment's pip finds installed instead of downloading it (no index here)."""
    directory.mkdir()
    site = Path(sysconfig.get_path("purelib"))
    for entry in site.iterdir():
        own = entry.name.startswith(("git_memory", "git_team_memory", "_editable_impl_"))
        if own or entry.suffix == ".pth" or entry.name == "__pycache__":
            continue
        (directory / entry.name).symlink_to(entry)
    return directory


def _clone(directory: Path) -> Path:
    directory.mkdir()
    for name in BUILT_FROM:
        source = PROJECT_ROOT / name
        if source.is_dir():
            shutil.copytree(source, directory / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, directory / name)
    return directory


@pytest.mark.slow
def test_the_first_command_works_where_pip_refuses_to_install_outside_a_venv(
    tmp_path: Path, hermetic_env: dict[str, Path]
) -> None:
    clone = _clone(tmp_path / "clone")
    git = Path(shutil.which("git") or "/usr/bin/git").parent
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("VIRTUAL_ENV", "PYTHONHOME") and not key.startswith("PIP_")
    }
    env.update(
        PATH=os.pathsep.join([str(_debian_python(tmp_path / "bin")), str(git), "/usr/bin:/bin"]),
        # No package index in a test: pip finds the dependencies and the build backend
        # installed here, and builds without an isolated environment (pip reads this
        # switch's 0 as "off").
        PYTHONPATH=str(_installed_dependencies(tmp_path / "installed")),
        PIP_NO_INDEX="1",
        PIP_NO_BUILD_ISOLATION="0",
        PIP_CONFIG_FILE=os.devnull,
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )

    def shell(command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "-e", "-c", command],
            cwd=clone,
            env=env,
            capture_output=True,
            text=True,
            timeout=HANG_CEILING,
            check=False,
        )

    refused = shell("python3 -m pip install .")  # what the README said before
    assert refused.returncode == 1
    assert REFUSAL in refused.stderr

    first, _ = _commands()
    ran = shell(first)
    assert ran.returncode == 0, ran.stderr[-3000:] + ran.stdout[-3000:]
    assert "7. assembled CLAUDE.md" in ran.stdout
    assert "the demo repository and its state are removed" in ran.stdout
    installed = list((clone / ".venv").glob("lib/python3*/site-packages/git_memory/__init__.py"))
    assert installed, "the package went into the clone's virtual environment"
    assert (clone / ".venv" / "bin" / "git-memory").is_file(), "git finds `git-memory` there"
