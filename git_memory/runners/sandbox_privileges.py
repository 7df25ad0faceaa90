"""The runner's side of the sandbox init: who it runs as and what it may do.

Standard library only (`sandbox_init.py` imports it). In the forked runner, before it runs
the program: the identity (`--identity drop`: as root, give up every capability's bounding
set, the supplementary groups and root itself for ids that own nothing here; `map`: stay
the caller), a nested user and mount namespace that locks the view's mounts, a session of
its own (no controlling terminal), no-new-privs, no capabilities, and the seccomp filter,
whose listener the init takes (`pidfd_getfd`) to run the attempt watch.
"""

from __future__ import annotations

import ctypes
import os

from git_memory.runners.sandbox_calls import NUMBERS
from git_memory.runners.sandbox_filter import install

CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 4, 24, 38
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
LINUX_CAPABILITY_VERSION_3 = 0x20080522
HELD, NOT_AVAILABLE = "held", "not available"


def _check(result: int, what: str) -> None:
    if result != 0:
        raise OSError(ctypes.get_errno(), f"{what}: {os.strerror(ctypes.get_errno())}")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def _drop_bounding_set(libc: ctypes.CDLL) -> None:
    with open("/proc/sys/kernel/cap_last_cap", encoding="utf-8") as handle:
        last = int(handle.read())
    for capability in range(last + 1):
        _check(libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0), "cannot drop a capability")


def _drop_capabilities(libc: ctypes.CDLL) -> None:
    _drop_bounding_set(libc)
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = _CapHeader(LINUX_CAPABILITY_VERSION_3, 0)
    _check(libc.capset(ctypes.byref(header), (_CapData * 2)()), "cannot clear the capabilities")


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def _identity(libc: ctypes.CDLL, ids: tuple[int, int], drop: bool) -> str:
    """Become the runner's user in a nested user and mount namespace of its own; the
    identity layer's state."""
    uid, gid = ids
    if drop:  # root: the ids map to themselves, owners of nothing on this host
        _drop_bounding_set(libc)
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
        # A changed id makes a process undumpable: its /proc/self files would stay root's.
        libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
        outer = (uid, gid)
    else:  # our own id is root of the outer namespace: the runner is us
        outer = (0, 0)
    _check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS), "cannot create the nested namespace")
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {outer[0]} 1\n")
    _write("/proc/self/gid_map", f"{gid} {outer[1]} 1\n")
    if drop:
        return HELD
    return "shared with the caller (only root may map another user id)"


def unprivileged(
    libc: ctypes.CDLL, ids: tuple[int, int], drop: bool, seccomp_on: bool
) -> tuple[dict[str, str], int | None]:
    """In the runner's process before exec: identity, nested namespaces, its own session,
    no capabilities, no new privileges, seccomp. Returns the layers as this process sees
    them and the attempt watch's listener (or None)."""
    identity = _identity(libc, ids, drop)
    os.setsid()
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "cannot set no-new-privs")
    _drop_capabilities(libc)
    listener: int | None = None
    seccomp = watch = f"{NOT_AVAILABLE} (--seccomp off)"
    # Opened before the filter: from then on an open waits for the watch, not yet running.
    status_file = os.open("/proc/self/status", os.O_RDONLY | os.O_CLOEXEC)
    if seccomp_on:
        handing = _can_hand_over(libc)
        listener, seccomp, watch = install(libc, watch=handing)
        if not handing:
            watch = f"{NOT_AVAILABLE} (no pidfd_getfd to take the listener: Linux 5.6)"
    status = _proc_status(status_file)
    caps = all(int(status.get(key, "1"), 16) == 0 for key in ("CapEff", "CapPrm", "CapBnd"))
    terminals = [fd for fd in (0, 1, 2) if os.isatty(fd)]
    layers = {
        "identity": identity,
        "user ns": HELD,
        "no terminal": f"failed (fd {terminals[0]} is a terminal)" if terminals else HELD,
        "caps dropped": HELD if caps else NOT_AVAILABLE,
        "no-new-privs": HELD if status.get("NoNewPrivs") == "1" else NOT_AVAILABLE,
        "seccomp": seccomp if status.get("Seccomp") == "2" or seccomp != HELD else "failed",
        "attempt watch": watch,
    }
    return layers, listener


def _can_hand_over(libc: ctypes.CDLL) -> bool:
    """Whether the seccomp listener can be taken from the runner (`pidfd_getfd`, 5.6)."""
    number = NUMBERS.get(os.uname().machine, (0, {}))[1].get("pidfd_getfd")
    if number is None or not hasattr(os, "pidfd_open"):
        return False
    pidfd = os.pidfd_open(os.getpid())
    try:
        taken = libc.syscall(number, pidfd, 0, 0)
    finally:
        os.close(pidfd)
    if taken < 0:
        return False
    os.close(taken)
    return True


def _proc_status(handle: int) -> dict[str, str]:
    text = os.pread(handle, 65536, 0).decode("utf-8", "replace")
    os.close(handle)
    pairs = [line.split(":", 1) for line in text.splitlines() if ":" in line]
    return {key: value.strip() for key, value in pairs}


def take_listener(libc: ctypes.CDLL, runner: int, number: int) -> int:
    """The runner's seccomp listener, as a descriptor of ours."""
    call = NUMBERS[os.uname().machine][1]["pidfd_getfd"]
    pidfd = os.pidfd_open(runner)
    try:
        taken = libc.syscall(call, pidfd, number, 0)
    finally:
        os.close(pidfd)
    if taken < 0:
        raise OSError(ctypes.get_errno(), "cannot take the attempt watch's listener")
    return int(taken)
