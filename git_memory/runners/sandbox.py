"""The OS layer of runner isolation: namespaces from `unshare`, and an endpoint-only egress.

Where util-linux `unshare` can create user, pid, mount and network namespaces (Linux, with
unprivileged user namespaces or as root), every model runner starts inside fresh ones:

- its own pid namespace with a private `/proc`: the parent's `/proc/<pid>/environ` and every
  other host process are out of sight, and when the runner exits nothing it started survives
  (`sandbox_init.py`, pid 1 there, kills the rest and reports it as lingering);
- its own mount namespace, in which the state home, `~/.ssh` and other credential stores are
  covered by empty read-only mounts;
- its own network namespace with no route out: the only way to the network is a proxy
  forwarded into the namespace that opens tunnels (HTTP CONNECT) to the profile's model
  endpoint and refuses everything else, loopback services of the host included.

Where no such sandbox can be made (not Linux, `unshare` missing, user namespaces disabled),
isolation is the environment layer alone (`environment.py`); `git memory doctor` says so.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from git_memory.runners.profiles import RunnerProfile

UNSHARE_FLAGS = (
    "--user",
    "--map-root-user",
    "--pid",
    "--fork",
    "--kill-child",
    "--mount",
    "--mount-proc",
    "--net",
)
SETTING = "GIT_MEMORY_RUNNER_SANDBOX"
TRIAL_TIMEOUT = 10.0
# Credential stores below the home directory that a runner never needs.
HIDDEN_IN_HOME = (
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".kube",
    ".docker",
    ".netrc",
    ".git-credentials",
    ".config/gh",
    ".config/gcloud",
)
ENDPOINTS = {"claude": ("api.anthropic.com", 443)}
MAX_REQUEST_HEAD = 8192


@dataclass(frozen=True)
class SandboxStatus:
    """Whether runners get the OS layer here, and why not when they do not."""

    available: bool
    reason: str


def _init_script() -> Path:
    return Path(__file__).resolve().with_name("sandbox_init.py")


@cache
def status(setting: str | None = None) -> SandboxStatus:
    """Probe once per process whether `unshare` can build the runner sandbox here."""
    from git_memory import _proc

    if (setting or "").lower() == "off":
        return SandboxStatus(False, f"turned off by {SETTING}=off")
    if not sys.platform.startswith("linux"):
        return SandboxStatus(False, f"no OS sandbox on {sys.platform} (Linux namespaces only)")
    unshare = shutil.which("unshare")
    if unshare is None:
        return SandboxStatus(False, "util-linux `unshare` is not installed")
    # Hiding a directory proves mounts work too, not only the namespaces.
    trial = wrap(["true"], [tempfile.gettempdir()], None)
    try:
        result = _proc.run(trial, env={"PATH": "/usr/bin:/bin"}, timeout=TRIAL_TIMEOUT)
    except (OSError, TimeoutError) as exc:
        return SandboxStatus(False, f"`unshare` cannot run: {exc}")
    except Exception as exc:  # subprocess.TimeoutExpired is not an OSError
        return SandboxStatus(False, f"`unshare` did not finish: {type(exc).__name__}")
    if result.returncode != 0:
        detail = result.stderr.decode("utf-8", "replace").strip().splitlines()
        why = detail[-1] if detail else f"status {result.returncode}"
        return SandboxStatus(False, f"user namespaces are not available ({why})")
    return SandboxStatus(True, "user, pid, mount and network namespaces (unshare)")


def current_status(host_env: Mapping[str, str] | None = None) -> SandboxStatus:
    """`status` under the `GIT_MEMORY_RUNNER_SANDBOX` setting of `host_env`."""
    env = os.environ if host_env is None else host_env
    return status(env.get(SETTING))


def hidden_paths(host_env: Mapping[str, str], own_state_home: Path | None = None) -> list[str]:
    """The state home (the caller's, and the environment's or default one) and the home
    directory's credential stores, as absolute paths."""
    from git_memory.errors import GitMemoryError
    from git_memory.paths import state_home

    found = [str(own_state_home)] if own_state_home is not None else []
    with contextlib.suppress(GitMemoryError):
        found.append(str(state_home()))
    home = host_env.get("HOME")
    if home:
        found += [str(Path(home) / name) for name in HIDDEN_IN_HOME]
    return [os.path.realpath(path) for path in dict.fromkeys(found)]


def endpoint_of(profile: RunnerProfile) -> tuple[str, int] | None:
    """The (host, port) the runner's model lives at, when it is on the network."""
    if profile.name in ENDPOINTS:
        return ENDPOINTS[profile.name]
    parts = urlsplit(profile.endpoint)
    if parts.scheme != "https" or not parts.hostname:
        return None
    return parts.hostname.lower(), parts.port or 443


def wrap(argv: list[str], hides: list[str], egress: Path | None) -> list[str]:
    """`argv` run by `sandbox_init.py` inside fresh namespaces."""
    unshare = shutil.which("unshare") or "unshare"
    options: list[str] = []
    for path in hides:
        options += ["--hide", path]
    if egress is not None:
        options += ["--egress", str(egress)]
    init = [sys.executable, "-I", str(_init_script())]
    return [unshare, *UNSHARE_FLAGS, *init, *options, "--", *argv]


class EgressProxy:
    """A CONNECT-only proxy on a unix socket that tunnels to one endpoint and refuses the rest.

    `refused` counts requests for anything else (another host, a loopback port, plain HTTP).
    """

    def __init__(self, path: Path, endpoint: tuple[str, int]) -> None:
        self.path = path
        self.endpoint = endpoint
        self.refused = 0
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(str(path))
        os.chmod(path, 0o600)
        self._listener.listen(16)
        self._listener.settimeout(0.1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> EgressProxy:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._listener.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                client, _address = self._listener.accept()
            except (TimeoutError, OSError):
                continue
            threading.Thread(target=self._tunnel, args=(client,), daemon=True).start()

    def _tunnel(self, client: socket.socket) -> None:
        with client:
            target = self._requested(client)
            if target != self.endpoint:
                self.refused += 1
                with contextlib.suppress(OSError):
                    client.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
                return
            try:
                upstream = socket.create_connection(target, timeout=30)
            except OSError:
                with contextlib.suppress(OSError):
                    client.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
                return
            with upstream:
                upstream.settimeout(None)
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                _splice(client, upstream)

    @staticmethod
    def _requested(client: socket.socket) -> tuple[str, int] | None:
        client.settimeout(30)
        head = b""
        with contextlib.suppress(OSError):
            while b"\r\n\r\n" not in head and len(head) < MAX_REQUEST_HEAD:
                chunk = client.recv(4096)
                if not chunk:
                    break
                head += chunk
        line = head.split(b"\r\n", 1)[0].decode("latin-1").split()
        if len(line) != 3 or line[0] != "CONNECT":
            return None
        host, _, port = line[1].rpartition(":")
        if not port.isdigit():
            return None
        return host.strip("[]").lower(), int(port)


def _splice(one: socket.socket, other: socket.socket) -> None:
    def pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)

    back = threading.Thread(target=pump, args=(other, one), daemon=True)
    back.start()
    pump(one, other)
    back.join()


@contextlib.contextmanager
def sandboxed(
    profile: RunnerProfile,
    argv: list[str],
    host_env: Mapping[str, str],
    own_state_home: Path | None = None,
) -> Iterator[tuple[list[str], EgressProxy | None]]:
    """The argv to start (wrapped when the OS layer is available) and its egress proxy."""
    if not current_status(host_env).available:
        yield argv, None
        return
    hides = hidden_paths(host_env, own_state_home)
    endpoint = endpoint_of(profile)
    if endpoint is None:
        yield wrap(argv, hides, None), None
        return
    # A unix socket path is limited to ~107 bytes: a short private directory of its own.
    short = Path(
        tempfile.mkdtemp(prefix="gm-egress-", dir="/tmp" if Path("/tmp").is_dir() else None)
    )
    try:
        with EgressProxy(short / "egress.sock", endpoint) as proxy:
            yield wrap(argv, hides, proxy.path), proxy
    finally:
        shutil.rmtree(short, ignore_errors=True)
