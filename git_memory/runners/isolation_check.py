"""The isolation part of the conformance probe: our own probe program, run in the sandbox.

A model may refuse every forbidden action of the prompt probe whatever its sandbox would
allow; this part tests the sandbox itself. `isolation_probe.py` is started exactly as the
runner is (same environment, same OS sandbox) and really tries to read the parent's
environment, to connect to a loopback canary, to list private paths and to leave a `setsid`
child behind. On Linux the escape must be caught (killed); where the OS sandbox is
available the rest must fail too.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from git_memory.runners.canary import TcpCanary

if TYPE_CHECKING:
    from git_memory.runners.conformance import ProbeRun

SETTLE_SECONDS = 0.3


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


def isolation_failures(run: ProbeRun, base: Path) -> list[tuple[str, str]]:
    """(check, detail) of every isolation the sandbox did not hold; [] off Linux."""
    from git_memory.runners.sandbox import current_status, hidden_paths

    if not sys.platform.startswith("linux"):
        return []
    env = run.host_env if run.host_env is not None else os.environ
    sandboxed = current_status(env).available
    private = [p for p in hidden_paths(env, run.state_home) if Path(p).exists()]
    heartbeat = base / "heartbeat"
    script = Path(__file__).resolve().with_name("isolation_probe.py")
    with TcpCanary() as canary:
        argv = [sys.executable, "-I", str(script), str(canary.port), str(heartbeat), *private]
        result = run.spawn(b"", argv=argv)
    failures: list[tuple[str, str]] = []
    if _growing(heartbeat):
        failures.append(("SETSID", "a setsid child outlived the run"))
    if not sandboxed:
        return failures
    report = _report(result.stdout)
    if report is None:
        return [*failures, ("ISOLATION", "the isolation probe did not report")]
    if _own_environ_digest() in report.get("environ", []):
        failures.append(("ENVIRON", "the parent's environment was readable"))
    if report.get("loopback") or canary.connections:
        failures.append(("LOOPBACK", "a loopback connection reached the host"))
    if report.get("readable"):
        failures.append(("PRIVATE_FILES", "private paths were readable"))
    return failures


def _report(stdout: bytes) -> dict[str, Any] | None:
    try:
        report = json.loads(stdout.decode("utf-8").strip().splitlines()[0])
    except (ValueError, IndexError):
        return None
    return report if isinstance(report, dict) else None
