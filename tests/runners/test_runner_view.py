"""The runner sees only what it needs (issue 42 R1, R2, R4, R5), each tried by a real runner:
a second mount of the home, a root-owned 0600 file, the user's terminal, a sibling
repository's token. Each is outside /tmp, which the sandbox has always replaced whole."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from git_memory.errors import GitMemoryError
from git_memory.runners import sandbox
from git_memory.runners.binary import identify
from git_memory.runners.identity import mapped_identity
from git_memory.runners.process import run_checked, spawn
from git_memory.runners.report import ReportSocket, private_dir
from git_memory.runners.view_paths import allowed_paths
from tests.conftest import PROJECT_ROOT
from tests.repos import make_repo
from tests.runners.conftest import command_profile

FakeRunner = Callable[[str], Path]
KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"
TOKEN_URL = "https://x-access-token:ghp_16C7e42F292c6912E7710c838347Ae178B4a@github.com/o/r.git"
ESCAPE = b"\x1b]0;forged title"
ROOT = os.geteuid() == 0


def _pry(script: Path, given: dict[str, Any]) -> dict[str, Any]:
    argv = [str(script), json.dumps(given)]
    result = spawn(command_profile(script), identify(str(script)), b"", argv=argv)
    assert result.returncode == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    return found


@pytest.fixture
def outside() -> Iterator[Path]:
    """A directory outside /tmp: only the runner's root being an allow-list keeps it out."""
    base = Path(tempfile.mkdtemp(prefix="gm-view-", dir="/var/tmp"))
    yield base
    shutil.rmtree(base, ignore_errors=True)


# Run inside a mount namespace of the test's own: a second mount of the home directory (as
# `/persist` or `/var/home` are), then the runner, started as git memory starts it.
SECOND_MOUNT = """
import json, subprocess, sys
from git_memory.runners.binary import identify
from git_memory.runners.process import run_checked, spawn
from git_memory.runners.profiles import RunnerOptions, resolve_profile
home, second, script = sys.argv[1:4]
subprocess.run(["mount", "--bind", home, second], check=True)
given = {"read": [second + "/.ssh/id_rsa", home + "/.ssh/id_rsa"], "mounts": True}
profile = resolve_profile(RunnerOptions("command", command=script), environ={})
result = spawn(profile, identify(script), b"", argv=[script, json.dumps(given)])
sys.stdout.write(result.stdout.decode())
"""


def test_a_second_mount_of_the_home_is_not_in_sight(fake_runner: FakeRunner, outside: Path) -> None:
    script = fake_runner("prying")
    home, second = outside / "home", outside / "persist"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text(KEY)
    second.mkdir()
    namespace = ["--mount", "--propagation", "private"]
    if not ROOT:
        namespace = ["--user", "--map-root-user", *namespace]
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(PROJECT_ROOT)}
    program = [sys.executable, "-c", SECOND_MOUNT, str(home), str(second), str(script)]
    done = subprocess.run(
        [shutil.which("unshare") or "unshare", *namespace, *program],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["read"] == {
        f"{second}/.ssh/id_rsa": "error 2",
        f"{home}/.ssh/id_rsa": "error 2",
    }
    # Its mount table names the view's own mounts only: neither mount of the home.
    assert not [point for point in seen["mounts"] if point.startswith(str(outside))]


@pytest.mark.skipif(not ROOT, reason="the root-owned file needs the tests to run as root")
def test_run_as_root_the_runner_owns_nothing_of_the_host(fake_runner: FakeRunner) -> None:
    script = fake_runner("prying")
    # A root-owned 0600 file inside its view (its program's directory), as a host key is.
    key = script.parent / "ssh_host_ed25519_key"
    key.write_text(KEY)
    key.chmod(0o600)
    made = script.parent / "made-by-the-runner"
    seen = _pry(script, {"read": [str(key), "/etc/ssh/ssh_host_ed25519_key"], "create": str(made)})
    assert seen["read"][str(key)] == "error 13"  # EACCES: root's owner bits are not its own
    assert seen["read"]["/etc/ssh/ssh_host_ed25519_key"] == "error 2"
    # What it makes belongs to an id that is neither root nor any account of this host.
    owner = made.stat().st_uid
    assert owner not in (0, 65534)
    with pytest.raises(KeyError):
        pwd.getpwuid(owner)
    assert seen["uid"] == owner


# Run with a pseudo-terminal as its controlling terminal, as a person's shell is.
AT_A_TERMINAL = """
import json, os, sys
from git_memory.runners.binary import identify
from git_memory.runners.process import run_checked, spawn
from git_memory.runners.profiles import RunnerOptions, resolve_profile
terminal, script = sys.argv[1:3]
os.setsid()
os.open(terminal, os.O_RDWR)  # our controlling terminal from now on
profile = resolve_profile(RunnerOptions("command", command=script), environ={})
argv = [script, json.dumps({"terminals": [terminal]})]
result = spawn(profile, identify(script), b"", argv=argv)
sys.stdout.write(result.stdout.decode())
"""


def _escape_reaches_terminal(script: Path, setting: str) -> tuple[bytes, dict[str, Any]]:
    master, slave = os.openpty()
    try:
        env = {**os.environ, sandbox.SETTING: setting, "PYTHONPATH": str(PROJECT_ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", AT_A_TERMINAL, os.ttyname(slave), str(script)],
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        os.set_blocking(master, False)
        received = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except (BlockingIOError, OSError):
                break
            if not chunk:
                break
            received += chunk
    finally:
        os.close(master)
        os.close(slave)
    seen: dict[str, Any] = json.loads(done.stdout)
    return received, seen


def test_no_terminal_reaches_the_runner(fake_runner: FakeRunner) -> None:
    script = fake_runner("prying")
    received, seen = _escape_reaches_terminal(script, "auto")
    assert ESCAPE not in received
    assert seen["terminals"]["/dev/tty"].startswith("error")
    assert seen["terminals"]["/dev/pts"] == "error 2"  # no /dev/pts in its view at all
    assert "written" not in seen["terminals"].values()
    assert len(seen["terminals"]) == 3  # /dev/tty, /dev/pts and the terminal it was given


@pytest.mark.skipif(not ROOT, reason="a terminal of root's is writable by root's ids only")
def test_without_the_os_layer_the_escape_reaches_the_terminal(fake_runner: FakeRunner) -> None:
    # The attack is real: the same runner without the sandbox writes to the terminal.
    received, seen = _escape_reaches_terminal(fake_runner("prying"), "off")
    assert ESCAPE in received
    assert "written" in seen["terminals"].values()


def test_a_sibling_repository_is_out_of_sight(
    fake_runner: FakeRunner, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = make_repo(outside / "here")
    sibling = make_repo(outside / "sibling", origin=TOKEN_URL)
    monkeypatch.chdir(here.root)  # git memory runs in one repository; the other is beside it
    script = fake_runner("prying")
    config = sibling.root / ".git" / "config"
    seen = _pry(script, {"read": [str(config), str(sibling.root), str(here.root / ".git")]})
    assert seen["read"] == {
        str(config): "error 2",
        str(sibling.root): "error 2",
        str(here.root / ".git"): "error 2",
    }
    # The token is there to take without the OS layer.
    monkeypatch.setenv(sandbox.SETTING, "off")
    assert "ghp_16C7e42F" in _pry(script, {"read": [str(config)]})["read"][str(config)]


def test_as_an_unprivileged_user_the_same_view_and_watch_hold(
    fake_runner: FakeRunner, outside: Path
) -> None:
    # What a user who is not root gets: a user namespace of the caller's own id. The view is
    # the same allow-list, and the watch sees the same tries.
    secret = outside / "notes.txt"
    secret.write_text(KEY)
    script = fake_runner("prying")
    argv = [str(script), json.dumps({"read": [str(secret)], "mounts": True})]
    allowed = allowed_paths(argv, {}, "command", write=[str(script.parent)])
    with private_dir() as short:
        reports = ReportSocket(short)
        command = sandbox.wrap(
            argv, allowed, None, identity=mapped_identity(), report=reports.path, cwd="/"
        )
        done = subprocess.run(command, input=b"", capture_output=True, check=False, timeout=120)
        report = reports.read()
        reports.close()
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["read"] == {str(secret): "error 2"}
    assert not [point for point in seen["mounts"] if point.startswith(str(outside))]
    assert report is not None
    layers = sandbox.layers_of(report)
    assert sandbox.missing_layers(layers) == []
    assert layers["identity"] == ("shared with the caller (only root may map another user id)")
    tried = [(item["what"], item["target"], item["layer"]) for item in report["attempts"]]
    assert ("read", str(secret), "allow-list root") in tried


@pytest.mark.skipif(not ROOT, reason="only root's runner runs as an id of its own")
def test_a_program_closed_to_others_is_a_clear_error_as_root(tmp_path: Path) -> None:
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o700)
    script = closed / "model.py"
    script.write_text(f"#!{sys.executable}\nprint('{{}}')\n")
    script.chmod(0o755)
    with pytest.raises(GitMemoryError) as caught:
        run_checked(command_profile(script), identify(str(script)), b"")
    assert caught.value.code == "GM_RUNNER_SPAWN_FAILED"
    assert "Permission denied" in caught.value.message
    assert "owns nothing here" in (caught.value.hint or "")
