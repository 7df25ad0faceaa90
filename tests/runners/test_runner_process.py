"""Bounded runner processes: limits kill the whole group, lingering children are caught."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from git_memory import _proc
from git_memory.errors import GitMemoryError
from git_memory.runners.binary import identify
from git_memory.runners.process import run_checked
from tests.runners.conftest import command_profile, set_mode
from tests.waiting import no_hang, wait_until

FakeRunner = Callable[[str], Path]


def _run(script: Path, stdin: bytes = b"task", **env: str) -> bytes:
    profile = command_profile(script, **env)
    return run_checked(profile, identify(str(script)), stdin)


def test_conformant_runner_answers(fake_runner: FakeRunner) -> None:
    out = _run(fake_runner("conformant"), b"x" * 10)
    assert b'"receivedBytes": 10' in out


def test_large_stdin_is_written_once_without_deadlock(fake_runner: FakeRunner) -> None:
    payload = os.urandom(3 * 1024 * 1024)  # far beyond any pipe buffer, echoed back
    out = _run(fake_runner("prompt-echo"), payload)
    assert out == payload


def test_timeout_kills_the_group(fake_runner: FakeRunner) -> None:
    # The runner never ends by itself: only the timeout can end the run.
    with no_hang("a hanging runner with a 500 ms timeout"), pytest.raises(GitMemoryError) as caught:
        _run(fake_runner("hang"), GIT_MEMORY_RUNNER_TIMEOUT_MS="500")
    assert caught.value.code == "GM_RUNNER_TIMEOUT"


def test_stdout_cap_kills_the_flood(fake_runner: FakeRunner) -> None:
    with pytest.raises(GitMemoryError) as caught:
        _run(fake_runner("flood"), GIT_MEMORY_RUNNER_OUTPUT_LIMIT="65536")
    assert caught.value.code == "GM_RUNNER_OUTPUT_LIMIT"
    assert caught.value.details["stream"] == "stdout"


def test_stderr_cap(tmp_path: Path) -> None:
    script = tmp_path / "noisy.py"
    script.write_text(
        f"#!{sys.executable}\nimport sys\nwhile True:\n    sys.stderr.write('e' * 4096)\n"
    )
    script.chmod(0o755)
    with pytest.raises(GitMemoryError) as caught:
        _run(script)
    assert caught.value.code == "GM_RUNNER_OUTPUT_LIMIT"
    assert caught.value.details["stream"] == "stderr"


def test_non_zero_exit(fake_runner: FakeRunner) -> None:
    script = fake_runner("conformant")
    set_mode(script, "exit-1")
    with pytest.raises(GitMemoryError) as caught:
        _run(script)
    assert caught.value.code == "GM_RUNNER_EXIT"
    assert caught.value.details["status"] == 1


def test_lingering_child_is_detected_and_killed(fake_runner: FakeRunner, tmp_path: Path) -> None:
    with pytest.raises(GitMemoryError) as caught:
        _run(fake_runner("lingering"))
    assert caught.value.code == "GM_RUNNER_LINGERING"


def test_group_kill_reaches_grandchildren(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    script = tmp_path / "parent.py"
    script.write_text(
        f"#!{sys.executable}\nimport subprocess, sys, time\n"
        f"p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(p.pid))\ntime.sleep(60)\n"
    )
    script.chmod(0o755)
    result = _proc.run_bounded(
        [str(script)],
        input_bytes=b"",
        env={"PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
        timeout=1.0,
        stdout_limit=1024,
        stderr_limit=1024,
    )
    assert result.timed_out
    grandchild = int(pid_file.read_text())
    wait_until(lambda: not _running(grandchild), "the killed group's grandchild is gone")


def _running(pid: int) -> bool:
    """Alive and not a zombie (a container's init may never reap the killed orphan)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def test_missing_program_is_a_spawn_failure(fake_runner: FakeRunner) -> None:
    script = fake_runner("conformant")
    binary = identify(str(script))
    script.unlink()
    with pytest.raises(GitMemoryError) as caught:
        run_checked(command_profile(script), binary, b"")
    assert caught.value.code == "GM_RUNNER_SPAWN_FAILED"


def test_unresolvable_binary(tmp_path: Path) -> None:
    with pytest.raises(GitMemoryError) as caught:
        identify("no-such-runner-program", {"PATH": str(tmp_path)})
    assert caught.value.code == "GM_RUNNER_BINARY_UNREADABLE"
    plain = tmp_path / "plain.txt"
    plain.write_text("not executable")
    with pytest.raises(GitMemoryError) as caught:
        identify(str(plain))
    assert caught.value.code == "GM_RUNNER_BINARY_UNREADABLE"


def test_path_lookup_binds_the_realpath(fake_runner: FakeRunner, tmp_path: Path) -> None:
    script = fake_runner("conformant")
    link_dir = tmp_path / "on-path"
    link_dir.mkdir()
    (link_dir / "claude").symlink_to(script)
    found = identify("claude", {"PATH": str(link_dir)})
    assert found.invoked == link_dir / "claude"
    assert found.realpath == script.resolve()


@pytest.mark.parametrize("start", ["run", "popen"])
def test_inherited_git_variables_are_scrubbed_by_default(
    monkeypatch: pytest.MonkeyPatch, start: str
) -> None:
    monkeypatch.setenv("GIT_INDEX_FILE", "/elsewhere/index")
    monkeypatch.setenv("GM_PROC_PROBE", "kept")
    argv = [sys.executable, "-c", "import os; print(sorted(os.environ))"]
    if start == "run":
        printed = _proc.run(argv).stdout
    else:
        child = _proc.popen(argv)
        printed, _err = child.communicate()
    assert b"GM_PROC_PROBE" in printed
    assert b"GIT_INDEX_FILE" not in printed
