"""A hostile `command` runner against the OS sandbox: each attack of issue 27 item 2, tried
for real from inside, must be contained and reported, and the host left byte-for-byte as it
was (no hook written, `~/.bashrc` unchanged, no connection reaching a host socket)."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from git_memory.runners import sandbox
from git_memory.runners.binary import identify
from git_memory.runners.canary import TcpCanary, UnixCanary
from git_memory.runners.private_paths import hidden_paths
from git_memory.runners.process import spawn
from git_memory.runners.report import ReportSocket, private_dir
from git_memory.runners.view_paths import allowed_paths
from git_memory.sessions.discover import default_roots
from tests.repos import make_repo
from tests.runners.conftest import command_profile, spawn_count

FakeRunner = Callable[[str], Path]
STATUS = sandbox.status()
needs_sandbox = pytest.mark.skipif(
    not STATUS.available, reason=f"the kernel refuses the runner sandbox: {STATUS.reason}"
)
KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"
TRANSCRIPT = '{"type":"user","message":{"content":"another project\'s secret plan"}}\n'


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Path]]:
    """A home, a state home, another project's transcripts and a repository, outside /tmp
    (which the sandbox replaces whole): here only the allow-listed root stands in the way."""
    parent = "/var/tmp" if os.access("/var/tmp", os.W_OK) else None
    base = Path(tempfile.mkdtemp(prefix="gm-hostile-", dir=parent))
    home, state, claude = base / "home", base / "state", base / "claude"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text(KEY)
    (home / ".bashrc").write_text("# the user's own\n")
    state.mkdir(mode=0o700)
    (state / "secret.json").write_text('{"secret": "state-home-secret"}\n')
    other = claude / "projects" / "-srv-other-project"
    other.mkdir(parents=True)
    (other / "0b5c1d2e.jsonl").write_text(TRANSCRIPT)
    repo = make_repo(base / "repo")
    for name, value in (("HOME", home), ("GIT_MEMORY_HOME", state), ("CLAUDE_CONFIG_DIR", claude)):
        monkeypatch.setenv(name, str(value))
    monkeypatch.chdir(repo.root)  # the runner is started from inside the repository
    yield {"base": base, "home": home, "state": state, "claude": claude, "repo": repo.root}
    shutil.rmtree(base, ignore_errors=True)


def _snapshot(base: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(base)): path.read_bytes()
        for path in sorted(base.rglob("*"))
        if path.is_file() and not path.is_socket()
    }


def _attack(script: Path, world: dict[str, Path], tcp: TcpCanary, unix: str) -> Any:
    hidden = [
        str(world["home"] / ".ssh" / "id_ed25519"),
        str(world["state"] / "secret.json"),
        str(world["claude"] / "projects" / "-srv-other-project" / "0b5c1d2e.jsonl"),
    ]
    given = {
        "hidden": hidden,
        "unixSocket": unix,
        "tcpPort": tcp.port,
        "hook": str(world["repo"] / ".git" / "hooks" / "post-checkout"),
        "bashrc": str(world["home"] / ".bashrc"),
        "hostMountNamespace": os.readlink("/proc/self/ns/mnt"),
    }
    argv = [str(script), json.dumps(given)]
    result = spawn(
        command_profile(script), identify(str(script)), b"go", argv=argv, watch=[tcp.port]
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), result.sandbox_report


@needs_sandbox
def test_every_attack_is_contained_and_reported(
    fake_runner: FakeRunner, world: dict[str, Path]
) -> None:
    script = fake_runner("hostile")
    before = _snapshot(world["base"])
    unix_path = str(world["base"] / "host.sock")
    with TcpCanary() as tcp, UnixCanary(unix_path) as unix:
        seen, report = _attack(script, world, tcp, unix_path)
    assert spawn_count(script) == 1  # it ran
    # Nothing it read holds a secret, before or after trying to undo the sandbox's mounts.
    for text in [*seen["read"].values(), *seen["readAfterUnmount"].values()]:
        assert "PRIVATE KEY" not in text
        assert "state-home-secret" not in text
        assert "secret plan" not in text
    attempts = seen["attempts"]
    assert set(attempts) == {
        "unmount the sandbox's mounts",
        "unmount from a new user namespace",
        "connect to a host unix socket",
        "connect out over TCP",
        "write .git/hooks/post-checkout",
        "append to ~/.bashrc",
    }
    # The TCP attempt reaches only the sandbox's own listener on the watched port, which
    # counts it (below); every other attempt fails outright.
    tcp_outcome = attempts.pop("connect out over TCP")
    assert all(outcome.startswith("refused") for outcome in attempts.values()), attempts
    # The outside world is unchanged: no byte, no hook, no connection.
    assert _snapshot(world["base"]) == before
    assert not (world["repo"] / ".git" / "hooks" / "post-checkout").exists()
    assert tcp.connections == 0
    assert unix.connections == 0
    # Reported: the attempt to connect out was counted inside, and every layer held.
    assert report["contained"] == {f"tcp:{tcp.port}": 1}, tcp_outcome
    assert sandbox.layers_of(report) == dict.fromkeys(sandbox.LAYERS, "held")


def test_the_same_attacks_succeed_without_the_os_layer(
    fake_runner: FakeRunner, world: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The attacks are real: with the OS layer off they read, write and connect.
    monkeypatch.setenv(sandbox.SETTING, "off")
    script = fake_runner("hostile")
    unix_path = str(world["base"] / "host.sock")
    with TcpCanary() as tcp, UnixCanary(unix_path) as unix:
        seen, report = _attack(script, world, tcp, unix_path)
    assert KEY in seen["read"][str(world["home"] / ".ssh" / "id_ed25519")]
    assert TRANSCRIPT in seen["read"].values()
    assert (world["repo"] / ".git" / "hooks" / "post-checkout").exists()
    assert "curl evil" in (world["home"] / ".bashrc").read_text()
    assert tcp.connections == 1
    assert unix.connections == 1
    assert report is None  # no sandbox, no report: nothing claims a layer held


@needs_sandbox
def test_hidden_paths_cover_every_agent_history_dotfiles_and_the_git_dir(
    world: dict[str, Path],
) -> None:
    hidden = hidden_paths(os.environ)
    for _name, root in default_roots():
        assert os.path.realpath(root) in hidden
    assert os.path.realpath(world["home"] / ".bashrc") in hidden
    assert os.path.realpath(world["home"] / ".ssh") in hidden
    assert os.path.realpath(world["repo"] / ".git") in hidden
    assert os.path.realpath(world["state"]) in hidden


@needs_sandbox
def test_without_seccomp_the_locked_mounts_and_dropped_capabilities_still_hold(
    fake_runner: FakeRunner, world: dict[str, Path]
) -> None:
    # The filter left out: unmounting as the unprivileged runner, and again as root of a
    # user namespace of its own, meets mounts locked by the nested namespace.
    script = fake_runner("hostile")
    with private_dir() as short, UnixCanary(str(short / "host.sock")) as unix, TcpCanary() as tcp:
        given = {
            "hidden": [str(world["home"] / ".ssh" / "id_ed25519"), str(world["state"])],
            "unixSocket": str(short / "host.sock"),
            "tcpPort": tcp.port,
            "hook": str(world["repo"] / ".git" / "hooks" / "post-checkout"),
            "bashrc": str(world["home"] / ".bashrc"),
            "hostMountNamespace": os.readlink("/proc/self/ns/mnt"),
        }
        argv = [str(script), json.dumps(given)]
        reports = ReportSocket(short)
        assert STATUS.identity is not None
        command = sandbox.wrap(
            argv,
            allowed_paths(argv, {}, "command", write=[str(script.parent)]),
            None,
            identity=STATUS.identity,
            report=reports.path,
            cwd="/",
            seccomp=False,
        )
        done = subprocess.run(command, input=b"go", capture_output=True, check=False, timeout=60)
        report = reports.read()
        reports.close()
    assert done.returncode == 0, done.stderr
    attempts = json.loads(done.stdout)["attempts"]
    assert attempts["unmount the sandbox's mounts"] == "refused (Operation not permitted)"
    # Its own user namespace is allowed without the filter; the mounts stay locked in it.
    assert attempts["unmount from a new user namespace"].startswith("refused (Invalid")
    assert KEY not in done.stdout.decode()
    assert not (world["repo"] / ".git" / "hooks" / "post-checkout").exists()
    assert unix.connections == 0
    assert tcp.connections == 0
    assert report is not None
    layers = sandbox.layers_of(report)
    assert layers["seccomp"] == "not available (--seccomp off)"
    assert layers["attempt watch"] == "not available (--seccomp off)"
    assert {name for name, state in layers.items() if state != "held"} == {
        "seccomp",
        "attempt watch",
    }


@needs_sandbox
def test_without_mount_setattr_each_mount_is_remounted_read_only(tmp_path: Path) -> None:
    # Kernels before 5.12 have no mount_setattr: the init remounts each mount instead,
    # keeping the flags a mount copied from the host is locked with.
    program = (
        "import ctypes, sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from git_memory.runners.sandbox_view import remount_each\n"
        "remount_each(ctypes.CDLL('libc.so.6', use_errno=True), '/', True, True)\n"
        "try:\n"
        "    open(sys.argv[2], 'w').close()\n"
        "    print('written')\n"
        "except OSError as exc:\n"
        "    print(exc.errno)\n"
    )
    init_dir = str(Path(sandbox.__file__).resolve().parents[2])
    target = tmp_path / "written.txt"
    unshare = shutil.which("unshare") or "unshare"
    argv = [unshare, "--user", "--map-root-user", "--mount", sys.executable, "-I", "-c", program]
    done = subprocess.run(
        [*argv, init_dir, str(target)], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(errno.EROFS)
    assert not target.exists()
