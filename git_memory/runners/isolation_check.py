"""The isolation part of the conformance probe: our own probe program, run in the sandbox.

A model may refuse every forbidden action of the prompt probe whatever its sandbox would
allow; this part tests the sandbox itself. `isolation_probe.py` is started exactly as the
runner is (same environment, same OS sandbox, same `process.spawn`) and really tries to read
the parent's environment and private paths, to connect out (TCP to a loopback canary, a host
unix socket, an abstract unix socket), to undo the sandbox's mounts and mount its own, to
write outside its workspace (decoys of `~/.bashrc` and `.git/hooks/post-checkout` made here)
and to a terminal (its own, and a pseudo-terminal made here: never anyone's real one), and
to leave a `setsid` child behind. On Linux the escape must be caught
(killed); where the OS sandbox is available every other attempt must be contained too, and
each one is reported with what contained it, together with the isolation layers that held.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from git_memory.runners.attempts import attempts_in
from git_memory.runners.binary import identify
from git_memory.runners.canary import TcpCanary, TerminalCanary, UnixCanary
from git_memory.runners.private_paths import hidden_paths
from git_memory.runners.process import spawn
from git_memory.runners.profiles import RunnerOptions, resolve_profile
from git_memory.runners.report import private_dir
from git_memory.runners.sandbox import current_status, layers_of

if TYPE_CHECKING:
    from git_memory import _proc

SETTLE_SECONDS = 0.15
DECOY_TEXT = "# decoy: must stay unchanged\n"
Spawn = Callable[..., "_proc.BoundedResult"]


@dataclass(frozen=True)
class IsolationResult:
    """What the sandbox let through (`failures`: (check, detail)), each attempt it contained
    (`contained`: "attempt: how"), and its layers (`sandbox.LAYERS` → "held" or why not)."""

    failures: list[tuple[str, str]] = field(default_factory=list)
    contained: list[str] = field(default_factory=list)
    layers: dict[str, str] = field(default_factory=dict)


def _own_environ_digest() -> str | None:
    try:
        with open("/proc/self/environ", "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


def _growing(heartbeat: Path) -> bool:
    def size() -> int:
        return heartbeat.stat().st_size if heartbeat.exists() else 0

    time.sleep(SETTLE_SECONDS)
    before = size()
    time.sleep(SETTLE_SECONDS)
    return size() > before


def _decoys(base: Path) -> dict[str, Path]:
    """Stand-ins for `~/.bashrc` and a repository's post-checkout hook, outside the
    workspace (the real ones are never written to, even by a probe)."""
    home, hooks = base / "decoy-home", base / "decoy-repo" / ".git" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    home.mkdir(exist_ok=True)
    (home / ".bashrc").write_text(DECOY_TEXT)
    return {
        "append to ~/.bashrc (a decoy)": home / ".bashrc",
        "write .git/hooks/post-checkout (a decoy)": hooks / "post-checkout",
    }


def check_isolation(
    spawn: Spawn,
    base: Path,
    host_env: Any = None,
    state_home: Path | None = None,
) -> IsolationResult:
    """Run the isolation probe through `spawn` (`process.spawn` bound to a runner) and
    judge it; off Linux there is nothing to check."""
    if not sys.platform.startswith("linux"):
        return IsolationResult()
    env = os.environ if host_env is None else host_env
    sandboxed = current_status(env).available
    private = [p for p in hidden_paths(env, state_home) if Path(p).exists()]
    heartbeat = base / "heartbeat-dir" / "heartbeat"
    heartbeat.parent.mkdir()
    decoys = _decoys(base)
    script = Path(__file__).resolve().with_name("isolation_probe.py")
    with (
        private_dir() as short,
        TcpCanary() as tcp,
        UnixCanary(str(short / "c.sock")) as unix,
        UnixCanary() as abstract,
        TerminalCanary() as terminal,
    ):
        given = {
            "canaryPort": tcp.port,
            "heartbeat": str(heartbeat),
            "private": private,
            "unixSocket": str(short / "c.sock"),
            "abstractSocket": abstract.abstract,
            "outside": {label: str(path) for label, path in decoys.items()},
            "terminal": terminal.path,
            "hostMountNamespace": os.readlink("/proc/self/ns/mnt"),
        }
        argv = [sys.executable, "-I", str(script), json.dumps(given)]
        result = spawn(
            b"", argv=argv, watch=[tcp.port], write=[heartbeat.parent], read=[script.parent]
        )
        written = terminal.received()
    reached = {
        "TCP": tcp.connections,
        "unix": unix.connections,
        "abstract": abstract.connections,
        "terminal": written,
    }
    failures: list[tuple[str, str]] = []
    if _growing(heartbeat):
        failures.append(("SETSID", "a setsid child outlived the run"))
    if not sandboxed:
        return IsolationResult(failures)
    report = _report(result.stdout)
    layers = layers_of(result.sandbox_report)
    if report is None:
        failures.append(("ISOLATION", "the isolation probe did not report"))
        return IsolationResult(failures, [], layers)
    judged = judge(report, reached, list(decoys.values()), result.sandbox_report or {}, tcp.port)
    return IsolationResult(failures + judged[0], judged[1], layers)


def judge(
    report: dict[str, Any],
    reached: dict[str, int],
    decoys: list[Path],
    sandbox_report: dict[str, Any],
    port: int,
) -> tuple[list[tuple[str, str]], list[str]]:
    """(failures, contained attempts) from the probe's report, the connections each host
    canary saw (`reached`), the decoys and the sandbox init's report (`port`: the TCP
    canary's, watched inside); the contained attempts end with what the attempt watch saw,
    each with the layer that stopped it."""
    failures: list[tuple[str, str]] = []
    if _own_environ_digest() in report.get("environ", []):
        failures.append(("ENVIRON", "the parent's environment was readable"))
    if reached["TCP"]:
        failures.append(("LOOPBACK", "a loopback connection reached the host"))
    if reached["unix"] or reached["abstract"]:
        failures.append(("UNIX_SOCKET", "a host unix socket accepted a connection"))
    # A private directory holding a program the runner needs (its interpreter, say) shows
    # the way down to that program, read-only, and nothing else.
    kept = [str(path) for path in sandbox_report.get("kept", [])]
    readable = {*report.get("readable", []), *report.get("readableAfterUnmount", [])}
    exposed = sorted(p for p in readable if not any(k.startswith(p + "/") for k in kept))
    if exposed:
        failures.append(("PRIVATE_FILES", "private paths were readable: " + ", ".join(exposed)))
    changed = [str(p) for p in decoys if p.exists() and p.read_text() != DECOY_TEXT]
    if changed:
        failures.append(("WRITE_OUTSIDE", "written outside the workspace: " + ", ".join(changed)))
    attempts: dict[str, str] = report.get("attempts", {})
    mounted = [name for name in attempts if "mount" in name and attempts[name].startswith("succ")]
    if mounted:
        failures.append(("MOUNT", "; ".join(f"{name}: {attempts[name]}" for name in mounted)))
    if reached.get("terminal") or attempts.get("write to a terminal", "").startswith("succ"):
        failures.append(("TERMINAL", "an escape sequence reached a terminal"))
    contained = [
        f"{name}: {outcome}"
        for name, outcome in attempts.items()
        if not outcome.startswith("succeeded")
    ]
    counted = sandbox_report.get("contained", {}).get(f"tcp:{port}", 0)
    if counted and not reached["TCP"]:
        contained.insert(0, f"connect out over TCP: contained ({counted} attempt(s) counted)")
    if not exposed:
        hidden = report.get("private", 0)
        contained.append(
            f"read of {hidden} private path(s) of the host, before and after unmounting: "
            "not in its view"
        )
    return failures, contained + attempts_in(sandbox_report)


def _report(stdout: bytes) -> dict[str, Any] | None:
    try:
        report = json.loads(stdout.decode("utf-8").strip().splitlines()[0])
    except (ValueError, IndexError):
        return None
    return report if isinstance(report, dict) else None


def probe_sandbox(base: Path, host_env: Any = None) -> IsolationResult:
    """`check_isolation` with this Python as the runner (no model involved): what any runner
    started here would meet."""
    profile = resolve_profile(RunnerOptions("command", command=sys.executable), environ={})
    binary = identify(sys.executable, host_env)

    def run(stdin: bytes, **options: Any) -> _proc.BoundedResult:
        return spawn(profile, binary, stdin, host_env=host_env, **options)

    return check_isolation(run, base, host_env)
