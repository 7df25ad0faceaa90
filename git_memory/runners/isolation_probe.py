"""What a runner could do in its sandbox, tried for real (run as a script, stdlib only).

The conformance probe starts this file exactly as it starts the runner (same environment,
same OS sandbox) and judges what it reports and what it left behind. Given one JSON argument
(`canaryPort`, `heartbeat`, `private`, `unixSocket`, `abstractSocket`, `outside`,
`terminal`, `hostMountNamespace`), it

1. reads every `/proc/<pid>/environ` it can see, the parent's first, and prints their digests
   (the host compares them with its own environment's digest);
2. tries to connect out: to the host's TCP canary on 127.0.0.1, to a unix socket the host
   listens on, and to an abstract unix socket the host holds;
3. lists the private paths it is given (state home, `~/.ssh`, agent history, …), then, only
   when it runs in a mount namespace other than the host's, tries to unmount every mount it
   can see, deepest first, and to mount a file system, and lists them again;
4. tries to append to each `outside` path (decoys of `~/.bashrc` and of a repository's
   `.git/hooks/post-checkout`, made by the host outside the workspace), and to write an
   escape sequence to its terminal and to the host's decoy pseudo-terminal (`terminal`);
5. starts a `setsid` child that leaves the process group and keeps appending to a heartbeat
   file, then exits at once: that child must be killed and reported as lingering.

It prints one JSON line: `environ`, `readable`, `readableAfterUnmount` and `attempts`
(each attempt's outcome: "succeeded" or the error it met).

Usage: isolation_probe.py JSON
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import hashlib
import json
import os
import socket
import sys
import time
from typing import Any

HEARTBEAT_SECONDS = 5.0
MNT_DETACH = 2
SUCCEEDED = "succeeded"


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


def _outcome(error: OSError) -> str:
    return f"refused ({os.strerror(error.errno)})" if error.errno else f"refused ({error})"


def _connect(family: int, address: Any) -> str:
    try:
        with socket.socket(family, socket.SOCK_STREAM) as connection:
            connection.settimeout(2)
            connection.connect(address)
            connection.sendall(b"isolation probe\n")
    except OSError as exc:
        return _outcome(exc)
    return SUCCEEDED


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


def _mount_points() -> list[str]:
    points: list[str] = []
    with contextlib.suppress(OSError), open("/proc/self/mountinfo", encoding="utf-8") as info:
        for line in info:
            fields = line.split()
            if len(fields) > 4:
                points.append(fields[4].replace("\\040", " "))
    return sorted(set(points), key=lambda point: -point.count("/"))


def _own_mount_namespace() -> str:
    # Mounts are tried only in a mount namespace of our own: never on the host's.
    try:
        return os.readlink("/proc/self/ns/mnt")
    except OSError:
        return ""


def _unmount_all(libc: ctypes.CDLL) -> str:
    undone = 0
    errors: set[str] = set()
    for point in _mount_points():
        if libc.umount2(point.encode(), MNT_DETACH) == 0:
            undone += 1
        else:
            errors.add(os.strerror(ctypes.get_errno()))
    if undone:
        return f"{SUCCEEDED} ({undone} mount(s) undone)"
    return f"refused ({', '.join(sorted(errors)) or 'no mounts'})"


def _mount(libc: ctypes.CDLL) -> str:
    target = os.getcwd()
    if libc.mount(b"tmpfs", target.encode(), b"tmpfs", 0, None) == 0:
        return SUCCEEDED
    return f"refused ({os.strerror(ctypes.get_errno())})"


def _append(path: str) -> str:
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write("# isolation probe\n")
    except OSError as exc:
        return _outcome(exc)
    return SUCCEEDED


def _terminal(decoy: str) -> str:
    """Write an escape sequence to the controlling terminal and to the host's decoy
    pseudo-terminal (what could forge what a person sees while approving)."""
    outcomes = sorted(
        {_append_bytes(target, b"\x1b]0;isolation probe\x07") for target in ("/dev/tty", decoy)}
    )
    written = [outcome for outcome in outcomes if outcome == SUCCEEDED]
    return SUCCEEDED if written else ", ".join(outcomes)


def _append_bytes(path: str, data: bytes) -> str:
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as exc:
        return _outcome(exc)
    try:
        os.write(descriptor, data)
    except OSError as exc:
        return _outcome(exc)
    finally:
        os.close(descriptor)
    return SUCCEEDED


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
    given = json.loads(argv[0])
    private: list[str] = given["private"]
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    attempts = {
        "connect out over TCP": _connect(socket.AF_INET, ("127.0.0.1", given["canaryPort"])),
        "connect to a host unix socket": _connect(socket.AF_UNIX, given["unixSocket"]),
        "connect to an abstract unix socket": _connect(
            socket.AF_UNIX, "\0" + given["abstractSocket"]
        ),
    }
    readable = _readable(private)
    if _own_mount_namespace() != given["hostMountNamespace"]:
        attempts["unmount the sandbox's mounts"] = _unmount_all(libc)
        attempts["mount a file system"] = _mount(libc)
    for label, path in given["outside"].items():
        attempts[label] = _append(path)
    attempts["write to a terminal"] = _terminal(given["terminal"])
    report = {
        "private": len(private),
        "environ": _environ_digests(),
        "readable": readable,
        "readableAfterUnmount": _readable(private),
        "attempts": attempts,
    }
    sys.stdout.write(json.dumps(report) + "\n")
    sys.stdout.flush()
    _escape(given["heartbeat"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
