"""The OS layer of runner isolation: namespaces from `unshare`, and an endpoint-only egress.

Where util-linux `unshare` can create pid, mount and network namespaces (Linux, as root or
with unprivileged user namespaces), every model runner starts inside fresh ones, set up by
`sandbox_init.py`:

- a root built from an allow-list (`view_paths.py`, `sandbox_view.py`): the system's
  programs and libraries, the certificate store, name resolution and the model CLI's own
  install read-only, its one-time tree (its HOME, TMPDIR and workspace) writable, fresh empty
  `/tmp`, `/run` and `/dev/shm`, five devices and no terminal — nothing else of the host's;
- its own pid namespace with a private `/proc`: no host process is in sight, and when the
  runner exits nothing it started survives (reported as lingering);
- its own network namespace with no route out: the only way to the network is a proxy
  forwarded into the namespace that opens tunnels (HTTP CONNECT) to the profile's model
  endpoint and refuses everything else;
- the runner itself unprivileged (`identity.py`): a user id that owns nothing of the host's
  when we are root, in a nested user and mount namespace (every mount above is locked there),
  in a session of its own, with no capabilities, no-new-privs and a seccomp filter; the
  filter hands the runner's file and network calls to an attempt watch that reports each
  one its view does not give it, with the layer that stopped it.

Where no such sandbox can be made (not Linux, `unshare` missing, namespaces refused),
isolation is the environment layer alone (`environment.py`); `git memory doctor` says so,
and names each layer that held when there is one.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from git_memory import _proc
from git_memory.runners.egress import EgressProxy, network_endpoint
from git_memory.runners.identity import Identity, mapped_identity, runner_identity
from git_memory.runners.profiles import ResolvedProfile
from git_memory.runners.report import ReportSocket, private_dir
from git_memory.runners.view_paths import allowed_paths

NAMESPACES = ("--pid", "--fork", "--kill-child", "--mount", "--mount-proc", "--net")
USER_NAMESPACE = ("--user", "--map-root-user")
SETTING = "GIT_MEMORY_RUNNER_SANDBOX"
# More directories a runner may write, os.pathsep-separated (a wrapper script's log folder).
WRITABLE_SETTING = "GIT_MEMORY_RUNNER_WRITABLE"
TRIAL_TIMEOUT = 10.0
# The sandbox init, started with `python -I -S -c` (no site: no `.pth` file runs) so that it
# imports this package's standard-library modules from this very tree, and nothing else.
LAUNCH = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from git_memory.runners.sandbox_init import run; run(sys.argv[2:])"
)
LAYERS = (
    "allow-list root",
    "identity",
    "clean environment",
    "no terminal",
    "mount ns",
    "net ns",
    "pid ns",
    "user ns",
    "caps dropped",
    "no-new-privs",
    "seccomp",
    "attempt watch",
)
HELD = "held"


@dataclass(frozen=True)
class SandboxStatus:
    """Whether runners get the OS layer here, why not when they do not, which of its layers
    held in the trial run (`LAYERS` → "held" or why not), and who the runner runs as."""

    available: bool
    reason: str
    layers: Mapping[str, str] = field(default_factory=dict)
    identity: Identity | None = None


def layers_of(report: Mapping[str, Any] | None) -> dict[str, str]:
    """Every layer of `LAYERS` with what the sandbox init reported of it."""
    said = report.get("layers", {}) if report else {}
    found = said if isinstance(said, dict) else {}
    return {name: str(found.get(name, "not available")) for name in LAYERS}


def describe_layers(layers: Mapping[str, str]) -> str:
    """`allow-list root held, …, seccomp not available (…)` for people."""
    return ", ".join(f"{name} {state}" for name, state in layers.items())


def missing_layers(layers: Mapping[str, str]) -> list[str]:
    """The layers that did not hold (an identity shared with the caller is what an
    unprivileged user gets, and is said as such, not missing)."""
    return [name for name, state in layers.items() if state.startswith(("not ", "failed"))]


@cache
def status(setting: str | None = None) -> SandboxStatus:
    """Probe once per process whether `unshare` can build the runner sandbox here."""
    if (setting or "").lower() == "off":
        return SandboxStatus(False, f"turned off by {SETTING}=off")
    if not sys.platform.startswith("linux"):
        return SandboxStatus(False, f"no OS sandbox on {sys.platform} (Linux namespaces only)")
    if shutil.which("unshare") is None:
        return SandboxStatus(False, "util-linux `unshare` is not installed")
    identity = runner_identity()
    found = _trial(identity)
    if not found.available and identity.drop:  # root without the right to make namespaces
        found = _trial(mapped_identity())
    return found


def _trial(identity: Identity) -> SandboxStatus:
    """The whole set-up run once with `true`."""
    with private_dir() as short:
        reports = ReportSocket(short)
        allowed = allowed_paths(["true"], {"PATH": "/usr/bin:/bin"}, "")
        trial = wrap(["true"], allowed, None, identity=identity, report=reports.path, cwd="/")
        try:
            result = _proc.run(trial, env={"PATH": "/usr/bin:/bin"}, timeout=TRIAL_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            return SandboxStatus(False, f"`unshare` cannot run: {exc}")
        except Exception as exc:  # subprocess.TimeoutExpired is not an OSError
            return SandboxStatus(False, f"`unshare` did not finish: {type(exc).__name__}")
        if result.returncode != 0:
            detail = result.stderr.decode("utf-8", "replace").strip().splitlines()
            why = detail[-1] if detail else f"status {result.returncode}"
            return SandboxStatus(False, f"namespaces are not available ({why})")
        layers = layers_of(reports.read())
        reports.close()
    kinds = "pid, mount and network namespaces" + ("" if identity.drop else ", user namespaces")
    return SandboxStatus(True, f"{kinds} (unshare)", layers, identity)


def current_status(host_env: Mapping[str, str] | None = None) -> SandboxStatus:
    """`status` under the `GIT_MEMORY_RUNNER_SANDBOX` setting of `host_env`."""
    env = os.environ if host_env is None else host_env
    return status(env.get(SETTING))


def wrap(
    argv: list[str],
    allowed: Mapping[str, bool],
    egress: Path | None,
    *,
    identity: Identity,
    watch: Sequence[int] = (),
    report: Path | None = None,
    cwd: str | None = None,
    seccomp: bool = True,
) -> list[str]:
    """`argv` run by `sandbox_init.py` inside fresh namespaces, seeing `allowed` (path →
    writable) and nothing else (`seccomp=False` leaves the filter and the attempt watch out:
    tests show the other layers hold without them)."""
    unshare = shutil.which("unshare") or "unshare"
    options = ["--uid", str(identity.uid), "--gid", str(identity.gid)]
    options += ["--identity", "drop" if identity.drop else "map"]
    for path, writable in allowed.items():
        options += ["--rw" if writable else "--ro", path]
    options += [item for port in watch for item in ("--watch", str(port))]
    for flag, value in (("--egress", egress), ("--report", report), ("--cwd", cwd)):
        if value is not None:
            options += [flag, str(value)]
    if not seccomp:
        options += ["--seccomp", "off"]
    package_parent = str(Path(__file__).resolve().parents[2])
    init = [sys.executable, "-I", "-S", "-c", LAUNCH, package_parent]
    namespaces = NAMESPACES if identity.drop else (*USER_NAMESPACE, *NAMESPACES)
    return [unshare, *namespaces, *init, *options, "--", *argv]


def hand_over(paths: Sequence[Path], identity: Identity) -> None:
    """Give the runner's own directories (made by us for this run) to the runner's id."""
    if not identity.drop:
        return
    for path in paths:
        for directory, _dirs, files in os.walk(path):
            os.chown(directory, identity.uid, identity.gid, follow_symlinks=False)
            for name in files:
                os.chown(Path(directory, name), identity.uid, identity.gid, follow_symlinks=False)


@dataclass
class Boxed:
    """One runner start: the argv (wrapped when the OS layer is available), its egress
    proxy, and where the sandbox init writes its report."""

    command: list[str]
    proxy: EgressProxy | None = None
    reports: ReportSocket | None = None
    identity: Identity | None = None

    def report(self) -> dict[str, Any] | None:
        """The init's report once the run is over (None without the OS layer)."""
        return self.reports.read() if self.reports is not None else None


@contextlib.contextmanager
def sandboxed(
    profile: ResolvedProfile,
    argv: list[str],
    host_env: Mapping[str, str],
    *,
    runner_env: Mapping[str, str],
    own: Sequence[Path] = (),
    read: Sequence[Path] = (),
    watch: Sequence[int] = (),
    cwd: Path | None = None,
) -> Iterator[Boxed]:
    """How to start `argv`: inside the OS sandbox when it is available, where `own` (the
    directories we made for this run, handed to the runner's id) and the directories of
    `GIT_MEMORY_RUNNER_WRITABLE` are the only writable host paths and `read` more
    read-only ones."""
    found = current_status(host_env)
    if not found.available or found.identity is None:
        yield Boxed(argv)
        return
    extra = [p for p in host_env.get(WRITABLE_SETTING, "").split(os.pathsep) if os.path.isabs(p)]
    allowed = allowed_paths(
        argv,
        runner_env,
        profile.name,
        read=[str(path) for path in read],
        write=[str(path) for path in own] + extra,
    )
    hand_over(own, found.identity)
    endpoint = network_endpoint(profile)
    with private_dir() as short:
        reports = ReportSocket(short)
        options: dict[str, Any] = {
            "identity": found.identity,
            "watch": watch,
            "report": reports.path,
            "cwd": str(cwd) if cwd is not None else None,
        }
        try:
            if endpoint is None:
                yield Boxed(wrap(argv, allowed, None, **options), None, reports, found.identity)
                return
            with EgressProxy(short / "egress.sock", endpoint) as proxy:
                command = wrap(argv, allowed, proxy.path, **options)
                yield Boxed(command, proxy, reports, found.identity)
        finally:
            reports.close()
