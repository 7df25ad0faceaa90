"""What a runner could do in its sandbox, tried for real (run as a script, stdlib only).

The conformance probe starts this file exactly as it starts the runner (same environment,
same OS sandbox) and judges what it reports and what it left behind. It

1. reads every `/proc/<pid>/environ` it can see, the parent's first, and prints their digests
   (the host compares them with its own environment's digest);
2. connects to the host's TCP canary on 127.0.0.1;
3. lists the private paths it is given (state home, `~/.ssh`, …);
4. starts a `setsid` child that leaves the process group and keeps appending to a heartbeat
   file, then exits at once: that child must be killed and reported as lingering.

Usage: isolation_probe.py CANARY_PORT HEARTBEAT_FILE [PRIVATE_PATH]...
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import sys
import time

HEARTBEAT_SECONDS = 5.0


def _environ_digests() -> list[str]:
    pids = [str(os.getppid())]
    with contextlib.suppress(OSError):
        pids += [name for name in os.listdir("/proc") if name.isdigit()]
    digests: list[str] = []
    for pid in dict.fromkeys(pids):
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                digests.append(hashlib.sha256(handle.read()).hexdigest())
        except OSError:
            continue
    return digests


def _loopback(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return True
    except OSError:
        return False


def _readable(paths: list[str]) -> list[str]:
    seen: list[str] = []
    for path in paths:
        try:
            if os.path.isdir(path):
                if os.listdir(path):
                    seen.append(path)
            elif os.path.isfile(path):
                with open(path, "rb") as handle:
                    if handle.read(1):
                        seen.append(path)
        except OSError:
            continue
    return seen


def _escape(heartbeat: str) -> None:
    if os.fork() != 0:
        return
    os.setsid()
    if os.fork() != 0:
        os._exit(0)
    for stream in (0, 1, 2):
        with contextlib.suppress(OSError):
            os.close(stream)
    deadline = time.monotonic() + HEARTBEAT_SECONDS
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), open(heartbeat, "a") as handle:
            handle.write(".")
        time.sleep(0.05)
    os._exit(0)


def main(argv: list[str]) -> int:
    port, heartbeat, private = int(argv[0]), argv[1], argv[2:]
    report = {
        "environ": _environ_digests(),
        "loopback": _loopback(port),
        "readable": _readable(private),
    }
    sys.stdout.write(json.dumps(report) + "\n")
    sys.stdout.flush()
    _escape(heartbeat)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
