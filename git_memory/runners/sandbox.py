"""The OS layer of runner isolation: namespaces from `unshare`, and an endpoint-only egress.

Where util-linux `unshare` can create user, pid, mount and network namespaces (Linux, with
unprivileged user namespaces or as root), every model runner starts inside fresh ones, set up
by `sandbox_init.py`:

- its own pid namespace with a private `/proc`: the parent's `/proc/<pid>/environ` and every
  other host process are out of sight, and when the runner exits nothing it started survives
  (the init, pid 1 there, kills the rest and reports it as lingering);
- its own mount namespace: every mount read-only except the runner's one-time tree (its
  HOME, TMPDIR and workspace) and fresh empty `/tmp`, `/run` and `/dev/shm`; the state home,
  every agent's history (`hidden_paths`), the home directory's dotfiles and credential stores
  and the repository's `.git` covered by empty read-only mounts;
- its own network namespace with no route out: the only way to the network is a proxy
  forwarded into the namespace that opens tunnels (HTTP CONNECT) to the profile's model
  endpoint and refuses everything else, loopback services of the host included; abstract
  unix sockets of the host are in another network namespace;
- the runner itself unprivileged: a nested user and mount namespace (every mount above is
  locked there and cannot be undone), a non-root user, no capabilities, no-new-privs, and a
  seccomp filter refusing mount, namespace, unix-socket, tracing, key, BPF and io_uring
  calls where this architecture has a syscall table.

Where no such sandbox can be made (not Linux, `unshare` missing, user namespaces disabled),
isolation is the environment layer alone (`environment.py`); `git memory doctor` says so,
and names each layer that held when there is one.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from git_memory import _proc
from git_memory.errors import GitMemoryError
from git_memory.paths import state_home
from git_memory.runners.profiles import ResolvedProfile
from git_memory.sessions.discover import default_roots

if sys.platform != "win32":  # the account database (a runner's home and `nobody`)
    import pwd

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
# More directories a runner may write, os.pathsep-separated (a wrapper script's log folder).
WRITABLE_SETTING = "GIT_MEMORY_RUNNER_WRITABLE"
NOBODY = 65534
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
MAX_REPORT = 65536


# Never needed by a runner and readable by the host's user: password hashes.
HIDDEN_SYSTEM = ("/etc/shadow", "/etc/gshadow")
LAYERS = (
    "user ns",
    "mount ns",
    "net ns",
    "pid ns",
    "read-only root",
    "nested user ns",
    "caps dropped",
    "no-new-privs",
    "seccomp",
)
HELD = "held"


@dataclass(frozen=True)
class SandboxStatus:
    """Whether runners get the OS layer here, why not when they do not, and which of its
    layers held in the trial run (`LAYERS` → "held" or why not)."""

    available: bool
    reason: str
    layers: Mapping[str, str] = field(default_factory=dict)


def _init_script() -> Path:
    return Path(__file__).resolve().with_name("sandbox_init.py")


def layers_of(report: Mapping[str, Any] | None) -> dict[str, str]:
    """Every layer of `LAYERS` with what the sandbox init reported of it."""
    said = report.get("layers", {}) if report else {}
    found = said if isinstance(said, dict) else {}
    return {name: str(found.get(name, "not available")) for name in LAYERS}


def describe_layers(layers: Mapping[str, str]) -> str:
    """`user ns held, …, seccomp not available (…)` for people."""
    return ", ".join(f"{name} {state}" for name, state in layers.items())


@cache
def status(setting: str | None = None) -> SandboxStatus:
    """Probe once per process whether `unshare` can build the runner sandbox here."""
    if (setting or "").lower() == "off":
        return SandboxStatus(False, f"turned off by {SETTING}=off")
    if not sys.platform.startswith("linux"):
        return SandboxStatus(False, f"no OS sandbox on {sys.platform} (Linux namespaces only)")
    unshare = shutil.which("unshare")
    if unshare is None:
        return SandboxStatus(False, "util-linux `unshare` is not installed")
    # The whole set-up, hiding a directory included, run once with `true`.
    with private_dir() as short:
        reports = ReportSocket(short)
        trial = wrap(["true"], [tempfile.gettempdir()], None, report=reports.path, cwd="/")
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
        layers = layers_of(reports.read())
        reports.close()
    return SandboxStatus(True, "user, pid, mount and network namespaces (unshare)", layers)


def current_status(host_env: Mapping[str, str] | None = None) -> SandboxStatus:
    """`status` under the `GIT_MEMORY_RUNNER_SANDBOX` setting of `host_env`."""
    env = os.environ if host_env is None else host_env
    return status(env.get(SETTING))


def hidden_paths(host_env: Mapping[str, str], own_state_home: Path | None = None) -> list[str]:
    """Everything a runner must not read, as absolute paths: the state home (the caller's,
    and the environment's or default one), every agent's history (where the session readers
    look for it), the home directory's dotfiles and credential stores, the `.git` of the
    repository we run in, and the system's password hashes."""
    found = [str(own_state_home)] if own_state_home is not None else []
    with contextlib.suppress(GitMemoryError):
        found.append(str(state_home()))
    found += [str(root) for _name, root in default_roots()]
    for home in dict.fromkeys([host_env.get("HOME"), _account_home()]):
        if home:
            found += [str(Path(home) / name) for name in HIDDEN_IN_HOME]
            found += _dotfiles(Path(home))
    found += _git_dirs(Path.cwd())
    found += HIDDEN_SYSTEM
    return [os.path.realpath(path) for path in dict.fromkeys(found)]


def _account_home() -> str | None:
    """The home directory of our user account, which `HOME` may not name (sudo, tests)."""
    if sys.platform == "win32":
        return None
    with contextlib.suppress(KeyError):
        return pwd.getpwuid(os.getuid()).pw_dir
    return None


def _dotfiles(home: Path) -> list[str]:
    with contextlib.suppress(OSError):
        return sorted(str(entry) for entry in home.iterdir() if entry.name.startswith("."))
    return []


def _git_dirs(start: Path) -> list[str]:
    """The git directory (and common directory) of the repository around `start`."""
    for directory in [start, *start.parents]:
        dot_git = directory / ".git"
        if dot_git.is_dir():
            return [str(dot_git)]
        if dot_git.is_file():
            with contextlib.suppress(OSError, UnicodeDecodeError):
                line = dot_git.read_text(encoding="utf-8").strip()
                if line.startswith("gitdir:"):
                    git_dir = (directory / line[len("gitdir:") :].strip()).resolve()
                    common = git_dir / "commondir"
                    found = [str(git_dir)]
                    if common.is_file():
                        found.append(str((git_dir / common.read_text().strip()).resolve()))
                    return found
            return [str(dot_git)]
    return []


def keep_paths(argv: list[str], path_value: str) -> list[str]:
    """What the runner must still see, read-only, even below a covered path: the program's
    own directory, the directories on its PATH, this Python and our probe scripts."""
    found: list[str] = []
    if argv and os.path.isabs(argv[0]):
        found.append(os.path.dirname(os.path.realpath(argv[0])))
    for directory in path_value.split(os.pathsep):
        if os.path.isabs(directory):
            found += [directory, os.path.realpath(directory)]
    found += [sys.prefix, sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable))]
    found.append(str(Path(__file__).resolve().parent))
    return [path for path in dict.fromkeys(found) if os.path.exists(path)]


def _runner_ids() -> tuple[int, int]:
    """The runner's user and group: ours, or `nobody` where we are root."""
    uid, gid = os.getuid(), os.getgid()
    if uid != 0:
        return uid, gid or NOBODY
    if sys.platform == "win32":
        return NOBODY, NOBODY
    with contextlib.suppress(KeyError):
        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    return NOBODY, NOBODY


def endpoint_of(profile: ResolvedProfile) -> tuple[str, int] | None:
    """The (host, port) the runner's model lives at, when it is on the network."""
    if profile.name in ENDPOINTS:
        return ENDPOINTS[profile.name]
    parts = urlsplit(profile.endpoint)
    if parts.scheme != "https" or not parts.hostname:
        return None
    return parts.hostname.lower(), parts.port or 443


def wrap(
    argv: list[str],
    hides: list[str],
    egress: Path | None,
    *,
    keep: Sequence[str] = (),
    write: Sequence[str] = (),
    watch: Sequence[int] = (),
    report: Path | None = None,
    cwd: str | None = None,
    seccomp: bool = True,
) -> list[str]:
    """`argv` run by `sandbox_init.py` inside fresh namespaces (`seccomp=False` leaves the
    filter out: tests show the other layers hold without it)."""
    unshare = shutil.which("unshare") or "unshare"
    uid, gid = _runner_ids()
    options = ["--uid", str(uid), "--gid", str(gid)]
    for flag, values in (("--hide", hides), ("--keep", keep), ("--write", write)):
        for value in values:
            options += [flag, value]
    options += [item for port in watch for item in ("--watch", str(port))]
    if egress is not None:
        options += ["--egress", str(egress)]
    if report is not None:
        options += ["--report", str(report)]
    if cwd is not None:
        options += ["--cwd", cwd]
    if not seccomp:
        options += ["--seccomp", "off"]
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
def private_dir() -> Iterator[Path]:
    """A short private directory (a unix socket path is limited to ~107 bytes), removed
    afterwards."""
    short = Path(
        tempfile.mkdtemp(prefix="gm-sandbox-", dir="/tmp" if Path("/tmp").is_dir() else None)
    )
    try:
        yield short
    finally:
        shutil.rmtree(short, ignore_errors=True)


class ReportSocket:
    """Where the sandbox init sends its report once the runner is gone: a unix socket in
    our private directory, reached from inside through a directory handle the init holds
    (the runner cannot reach it: `/tmp` is covered and unix sockets are refused to it)."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / "report.sock"
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(str(self.path))
        os.chmod(self.path, 0o600)
        self._listener.listen(1)

    def read(self) -> dict[str, Any] | None:
        """`{"layers": {...}, "contained": {...}}` as the init sent it, or None."""
        self._listener.setblocking(False)
        try:
            connection, _address = self._listener.accept()
        except OSError:
            return None
        data = b""
        with connection:
            connection.settimeout(2)
            with contextlib.suppress(OSError):
                while len(data) < MAX_REPORT and (chunk := connection.recv(65536)):
                    data += chunk
        try:
            found = json.loads(data)
        except ValueError:
            return None
        return found if isinstance(found, dict) else None

    def close(self) -> None:
        """Stop listening."""
        self._listener.close()


@dataclass
class Boxed:
    """One runner start: the argv (wrapped when the OS layer is available), its egress
    proxy, and where the sandbox init writes its report."""

    command: list[str]
    proxy: EgressProxy | None = None
    reports: ReportSocket | None = None

    def report(self) -> dict[str, Any] | None:
        """The init's report once the run is over (None without the OS layer)."""
        return self.reports.read() if self.reports is not None else None


@contextlib.contextmanager
def sandboxed(
    profile: ResolvedProfile,
    argv: list[str],
    host_env: Mapping[str, str],
    own_state_home: Path | None = None,
    *,
    runner_env: Mapping[str, str] | None = None,
    write: Sequence[Path] = (),
    watch: Sequence[int] = (),
    cwd: Path | None = None,
) -> Iterator[Boxed]:
    """How to start `argv`: inside the OS sandbox when it is available, where `write` (and
    the directories of `GIT_MEMORY_RUNNER_WRITABLE`) are the only writable host paths."""
    if not current_status(host_env).available:
        yield Boxed(argv)
        return
    hides = hidden_paths(host_env, own_state_home)
    keep = keep_paths(argv, (runner_env or {}).get("PATH", ""))
    extra = [p for p in host_env.get(WRITABLE_SETTING, "").split(os.pathsep) if os.path.isabs(p)]
    writable = [str(path) for path in write] + extra
    endpoint = endpoint_of(profile)
    with private_dir() as short:
        reports = ReportSocket(short)
        options: dict[str, Any] = {
            "keep": keep,
            "write": writable,
            "watch": watch,
            "report": reports.path,
            "cwd": str(cwd) if cwd is not None else None,
        }
        try:
            if endpoint is None:
                yield Boxed(wrap(argv, hides, None, **options), None, reports)
                return
            with EgressProxy(short / "egress.sock", endpoint) as proxy:
                yield Boxed(wrap(argv, hides, proxy.path, **options), proxy, reports)
        finally:
            reports.close()
