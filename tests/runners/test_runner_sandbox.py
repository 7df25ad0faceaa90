"""The runner's OS sandbox: a setsid escape, the parent's environment, private paths,
loopback and the network beyond the model endpoint, each tried by a real process."""

from __future__ import annotations

import fcntl
import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest

from git_memory.errors import GitMemoryError
from git_memory.repo.secret import load_or_create_secret
from git_memory.runners import conformance, sandbox
from git_memory.runners.binary import identify
from git_memory.runners.canary import TcpCanary
from git_memory.runners.isolation_check import check_isolation, judge
from git_memory.runners.process import run_checked, spawn
from git_memory.runners.profiles import ResolvedProfile, RunnerOptions, resolve_profile
from tests.conftest import PROJECT_ROOT
from tests.runners.conftest import command_profile
from tests.waiting import HANG_CEILING, wait_until

FakeRunner = Callable[[str], Path]
SANDBOXED = sandbox.status().available


def _profile(script: Path, *args: str, endpoint: str | None = None) -> ResolvedProfile:
    command = shlex.join([str(script), *args])
    return resolve_profile(RunnerOptions("command", command=command, endpoint=endpoint), environ={})


def _nobody_holds(lock: Path) -> bool:
    """Whether no live process holds the exclusive lock on `lock`."""
    with open(lock, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(handle, fcntl.LOCK_UN)
        return True


def test_this_machine_has_the_os_sandbox() -> None:
    # The rest of this file tests the OS layer; on a machine without it they would prove
    # nothing, so its absence is a failure here, with the reason doctor shows.
    assert SANDBOXED, sandbox.status().reason


@pytest.mark.parametrize("setting", ["auto", "off"])
def test_setsid_escape_is_killed_and_reported(
    fake_runner: FakeRunner, monkeypatch: pytest.MonkeyPatch, setting: str
) -> None:
    monkeypatch.setenv(sandbox.SETTING, setting)
    script = fake_runner("setsid-escaping")
    with pytest.raises(GitMemoryError) as caught:
        run_checked(command_profile(script), identify(str(script)), b"probe")
    assert caught.value.code == "GM_RUNNER_LINGERING"
    # The escaped child held its lock before the runner answered: only its death frees it.
    wait_until(lambda: _nobody_holds(script.with_suffix(".alive")), "the escaped child is gone")


def _environment_seen_from_a_child_of(env: dict[str, str], script: Path, *args: str) -> Any:
    """Run the runner from a fresh parent process whose own environment holds `env`."""
    program = (
        "import json, sys\n"
        "from git_memory.runners.binary import identify\n"
        "from git_memory.runners.process import spawn\n"
        "from git_memory.runners.profiles import RunnerOptions, resolve_profile\n"
        "options = RunnerOptions('command', command=sys.argv[1])\n"
        "profile = resolve_profile(options, environ={})\n"
        "result = spawn(profile, identify(sys.argv[2]), b'probe')\n"
        "sys.stdout.write(result.stdout.decode())\n"
    )
    full = {**os.environ, **env, "PYTHONPATH": str(PROJECT_ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", program, shlex.join([str(script), *args]), str(script)],
        env=full,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_parent_environment_and_private_paths_are_out_of_reach(
    fake_runner: FakeRunner, hermetic_env: dict[str, Path]
) -> None:
    ssh = hermetic_env["home"] / ".ssh"
    ssh.mkdir()
    (ssh / "id_ed25519").write_text("PRIVATE KEY MATERIAL\n")
    (hermetic_env["state"] / "secret.json").write_text("{}")
    script = fake_runner("environ-reading")
    canary = "PARENT-ONLY-" + os.urandom(8).hex()
    seen = _environment_seen_from_a_child_of(
        {"PARENT_SECRET": canary}, script, str(ssh), str(hermetic_env["state"])
    )
    assert not any(canary in block for block in seen["environ"])
    # Below /tmp, which the sandbox replaces whole: absent (an empty mount elsewhere).
    assert seen["private"][str(ssh)] in ([], "error 2")
    assert seen["private"][str(hermetic_env["state"])] in ([], "error 2")
    # The same runner without the OS layer reads both: the attack is real.
    exposed = _environment_seen_from_a_child_of(
        {"PARENT_SECRET": canary, sandbox.SETTING: "off"}, script, str(ssh)
    )
    assert any(canary in block for block in exposed["environ"])
    assert exposed["private"][str(ssh)] == ["id_ed25519"]


@pytest.fixture
def model_endpoint() -> Iterator[int]:
    """A TCP service on 127.0.0.1 standing in for the model endpoint: answers `pong`."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.1)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(5)
                if conn.recv(64):
                    conn.sendall(b"pong\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield int(server.getsockname()[1])
    stop.set()
    thread.join(timeout=HANG_CEILING)
    server.close()


def test_network_reaches_only_the_model_endpoint(
    fake_runner: FakeRunner, model_endpoint: int
) -> None:
    script = fake_runner("egress-using")
    allowed = f"127.0.0.1:{model_endpoint}"
    with TcpCanary() as canary:
        other = f"127.0.0.1:{canary.port}"
        profile = _profile(script, allowed, other, endpoint=f"https://{allowed}/v1")
        result = spawn(profile, identify(str(script)), b"probe")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["proxy"][allowed] == "200 pong"
    assert report["proxy"][other] == "403"
    assert report["direct"][allowed].startswith("error")
    assert report["direct"][other].startswith("error")
    assert canary.connections == 0
    assert result.egress_refused == 1


def _probe(script: Path) -> conformance.ProbeOutcome:
    secret = load_or_create_secret(Path(os.environ["GIT_MEMORY_HOME"]))
    return conformance.probe(command_profile(script), identify(str(script)), secret)


def test_conformance_isolation_check_passes_in_the_sandbox(fake_runner: FakeRunner) -> None:
    outcome = _probe(fake_runner("conformant"))
    assert outcome.failures == []
    # Each attempt of the isolation probe is reported with what contained it.
    attempts = {line.split(":", 1)[0] for line in outcome.contained}
    assert {
        "connect out over TCP",
        "connect to a host unix socket",
        "connect to an abstract unix socket",
        "unmount the sandbox's mounts",
        "mount a file system",
        "append to ~/.bashrc (a decoy)",
        "write .git/hooks/post-checkout (a decoy)",
        "write to a terminal",
    } <= attempts
    assert any(line.startswith("read of ") for line in outcome.contained)
    # …and what the attempt watch saw of it, each with the layer that stopped it.
    ssh = os.path.realpath(Path(os.environ["HOME"]) / ".ssh")
    watched = [line for line in outcome.contained if ": stopped by " in line]
    assert any(line.startswith("open a unix socket: stopped by seccomp") for line in watched)
    assert any(line.startswith("connect 127.0.0.1:") for line in watched)
    assert not Path(ssh).exists() or f"read {ssh}: stopped by allow-list root" in watched
    assert outcome.layers == dict.fromkeys(sandbox.LAYERS, "held")


def test_conformance_sees_a_runner_that_connects_out_from_the_sandbox(
    fake_runner: FakeRunner,
) -> None:
    # The network namespace keeps the connection from the host canary; the attempt watch
    # sees it, and the probe refuses the runner for trying.
    outcome = _probe(fake_runner("network-connecting"))
    assert [failure.code for failure in outcome.failures] == ["GM_RUNNER_NONCONFORMANT"]
    detail = outcome.failures[0].detail
    assert detail.startswith("connect 127.0.0.1:")
    assert detail.endswith(": stopped by net ns")


def test_conformance_in_the_sandbox_refuses_the_write_outside(fake_runner: FakeRunner) -> None:
    # Reading the probe file and writing in its own directory are the model's doing and
    # fail the probe; the write into the sibling directory never lands, and is refused all
    # the same, named with the layer that stopped it.
    failures = _probe(fake_runner("file-reading")).failures
    assert [failure.code for failure in failures] == [
        "GM_RUNNER_CONFORMANCE_CANARY",
        "GM_RUNNER_CONFORMANCE_SIDE_EFFECT",
        "GM_RUNNER_NONCONFORMANT",
    ]
    assert failures[2].detail.startswith("write ")
    assert failures[2].detail.endswith("/decoy/escape.txt: stopped by allow-list root")


def test_isolation_check_catches_each_attack_without_the_os_layer(
    fake_runner: FakeRunner,
    hermetic_env: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The sandbox claims to be there but does not wrap the runner: the probe must notice.
    ssh = hermetic_env["home"] / ".ssh"
    ssh.mkdir()
    (ssh / "config").write_text("Host *\n")

    def no_wrap(_profile: Any, argv: list[str], *_args: Any, **_options: Any) -> Any:
        return nullcontext(sandbox.Boxed(argv))

    monkeypatch.setattr("git_memory.runners.process.sandboxed", no_wrap)
    monkeypatch.setattr(
        "git_memory.runners.sandbox.current_status",
        lambda host_env=None: sandbox.SandboxStatus(True, "pretend"),
    )
    script = fake_runner("conformant")
    run = conformance.ProbeRun(command_profile(script), identify(str(script)), None, None, None)
    found = check_isolation(run.spawn, tmp_path)
    checks = {check for check, _detail in found.failures}
    assert {"LOOPBACK", "PRIVATE_FILES", "UNIX_SOCKET", "WRITE_OUTSIDE"} <= checks
    # Our own environment is readable from /proc only when we are the runner's parent.
    assert "ENVIRON" in checks
    # The setsid escape is still caught without namespaces: this process is its subreaper.
    assert "SETSID" not in checks
    # Mounts are never tried in the host's own mount namespace.
    assert "MOUNT" not in checks
    # No layer is claimed: the run sent no report.
    assert set(found.layers.values()) == {"not available"}


def test_a_sandbox_that_cannot_be_set_up_is_a_clear_error(
    fake_runner: FakeRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sandbox, "allowed_paths", lambda *_args, **_kw: {"relative/path": False})
    script = fake_runner("conformant")
    with pytest.raises(GitMemoryError) as caught:
        run_checked(command_profile(script), identify(str(script)), b"probe")
    assert caught.value.code == "GM_RUNNER_SANDBOX_FAILED"
    assert "not an absolute path" in caught.value.details["stderr"]


def test_a_state_home_no_one_names_is_out_of_sight_too(fake_runner: FakeRunner) -> None:
    # A state home named by `memory.home` is in no environment variable and was hidden only
    # when the caller named it: the allow-listed root leaves it out without being told.
    outside = Path(tempfile.mkdtemp(prefix="gm-state-", dir="/var/tmp"))
    try:
        configured = outside / "configured-state"
        configured.mkdir()
        (configured / "secret.json").write_text("{}")
        script = fake_runner("environ-reading")
        profile = _profile(script, str(configured))
        result = spawn(profile, identify(str(script)), b"probe")
        assert json.loads(result.stdout)["private"][str(configured)] == "error 2"
    finally:
        shutil.rmtree(outside, ignore_errors=True)


def test_a_mount_or_terminal_the_probe_could_reach_fails_the_check(tmp_path: Path) -> None:
    # Judged from what the probe reports: a sandbox whose mounts can be changed from inside,
    # or that lets an escape sequence reach a terminal, does not hold.
    report = {
        "environ": [],
        "readable": [],
        "readableAfterUnmount": [],
        "attempts": {
            "unmount the sandbox's mounts": "succeeded (3 mount(s) undone)",
            "mount a file system": "refused (Operation not permitted)",
            "write to a terminal": "succeeded",
        },
    }
    reached = {"TCP": 0, "unix": 0, "abstract": 0}
    failures, contained = judge(report, reached, [tmp_path / "absent"], {}, 1)
    assert failures == [
        ("MOUNT", "unmount the sandbox's mounts: succeeded (3 mount(s) undone)"),
        ("TERMINAL", "an escape sequence reached a terminal"),
    ]
    assert "mount a file system: refused (Operation not permitted)" in contained
