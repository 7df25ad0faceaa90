"""A TERM signal to git memory ends a running runner's whole group and its temp dirs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.conftest import PROJECT_ROOT
from tests.repos import Repo
from tests.waiting import HANG_CEILING, wait_until


def _running(marker: str, parent: int) -> list[int]:
    """Live (not zombie) processes other than `parent` whose command line mentions `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == parent:
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (entry / "status").read_text()
        except OSError:
            continue
        if marker in cmdline and "State:\tZ" not in state:
            found.append(int(entry.name))
    return found


def test_sigterm_kills_the_runner_group(
    repo: Repo, fake_runner: Callable[[str], Path], tmp_path: Path
) -> None:
    script = fake_runner("hang")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "TMPDIR": str(tmp)}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "git_memory",
            "reverify-runner",
            "--runner",
            "command",
            "--runner-command",
            str(script),
        ],
        cwd=repo.root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_until(lambda: _running(str(script), proc.pid), "the runner started")
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=HANG_CEILING)
    assert code == 130, proc.stderr.read() if proc.stderr else ""
    wait_until(lambda: not _running(str(script), proc.pid), "the runner's whole group is gone")
    assert list(tmp.iterdir()) == [], "one-time runner directories are removed"
