"""The runner's seccomp filter (standard library only: installed by the sandbox init).

The filter refuses the calls of `sandbox_calls.DENIED` and a unix socket of any kind, answers
`clone3` "not implemented" (its flags are behind a pointer; C libraries fall back to `clone`,
whose namespace flags are refused), and, with the attempt watch, hands every call of
`sandbox_calls.WATCHED` to the sandbox init through a seccomp listener (`sandbox_watch.py`),
which notes what the call tries and lets the kernel decide. A `sendto` without an address
names nothing and is not handed over.
"""

from __future__ import annotations

import ctypes
import os

from git_memory.runners.sandbox_calls import DENIED, NUMBERS, WATCHED

RET_KILL, RET_ALLOW, RET_ERRNO, RET_NOTIFY = 0x80000000, 0x7FFF0000, 0x00050000, 0x7FC00000
LD_ABS, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06
EPERM, ENOSYS = 1, 38
AF_UNIX = 1
NAMESPACE_FLAGS = 0x7E020000  # CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET
SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER = 1, 8
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
HELD, NOT_AVAILABLE = "held", "not available"
# Calls looked at by their arguments before they are handed over (offsets into
# `struct seccomp_data`: the low word of argument N is at 16 + 8 * N).
ARGUMENT_CHECKS = {"sendto": "sendto"}
Instruction = tuple[int, int, int, int]


class _Filter(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_ushort),
        ("jt", ctypes.c_ubyte),
        ("jf", ctypes.c_ubyte),
        ("k", ctypes.c_uint),
    ]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Filter))]


def _labels(watch: bool) -> dict[str, list[tuple[int, str | int, str | int, int]]]:
    notify = "notify" if watch else "allow"
    return {
        "socket": [(LD_ABS, 0, 0, 16), (JEQ, notify if watch else "eperm", "allow", AF_UNIX)],
        "clone": [(LD_ABS, 0, 0, 16), (JSET, "eperm", "allow", NAMESPACE_FLAGS)],
        "sendto": [
            (LD_ABS, 0, 0, 48),
            (JEQ, 0, notify, 0),
            (LD_ABS, 0, 0, 52),
            (JEQ, "allow", notify, 0),
        ],
        "allow": [(RET, 0, 0, RET_ALLOW)],
        "eperm": [(RET, 0, 0, RET_ERRNO | EPERM)],
        "enosys": [(RET, 0, 0, RET_ERRNO | ENOSYS)],
        "kill": [(RET, 0, 0, RET_KILL)],
        "notify": [(RET, 0, 0, RET_NOTIFY)],
    }


def program(machine: str, watch: bool) -> tuple[list[Instruction], str]:
    """The filter's instructions for `machine`, or [] and why there is none."""
    if machine not in NUMBERS:
        return [], f"{NOT_AVAILABLE} (no syscall table for {machine})"
    arch, numbers = NUMBERS[machine]
    code: list[tuple[int, str | int, str | int, int]] = [
        (LD_ABS, 0, 0, 4),
        (JEQ, 1, 0, arch),
        (RET, 0, 0, RET_KILL),
        (LD_ABS, 0, 0, 0),
        (JGE, "kill", 0, 0x40000000),  # the x32 ABI on x86_64
        *[(JEQ, "eperm", 0, numbers[name]) for name in DENIED if name in numbers],
        (JEQ, "enosys", 0, numbers["clone3"]),
        (JEQ, "socket", 0, numbers["socket"]),
        (JEQ, "clone", 0, numbers["clone"]),
    ]
    if watch:
        code += [(JEQ, label, 0, numbers[name]) for name, label in ARGUMENT_CHECKS.items()]
        plain = [name for name in WATCHED if name not in ARGUMENT_CHECKS and name != "socket"]
        code += [(JEQ, "notify", 0, numbers[name]) for name in plain if name in numbers]
    code.append((RET, 0, 0, RET_ALLOW))
    return _resolve(code, _labels(watch)), HELD


def _resolve(
    code: list[tuple[int, str | int, str | int, int]],
    labels: dict[str, list[tuple[int, str | int, str | int, int]]],
) -> list[Instruction]:
    where: dict[str, int] = {}
    for label, body in labels.items():
        where[label] = len(code)
        code = code + body
    resolved = []
    for index, (op, jt, jf, k) in enumerate(code):
        true = where[jt] - index - 1 if isinstance(jt, str) else jt
        false = where[jf] - index - 1 if isinstance(jf, str) else jf
        if not (0 <= true <= 255 and 0 <= false <= 255):
            raise ValueError("a seccomp jump is out of range")
        resolved.append((op, true, false, k))
    return resolved


def _fprog(code: list[Instruction]) -> tuple[_Program, ctypes.Array[_Filter]]:
    table = (_Filter * len(code))(*[_Filter(*row) for row in code])
    return _Program(len(code), ctypes.cast(table, ctypes.POINTER(_Filter))), table


def install(libc: ctypes.CDLL, watch: bool) -> tuple[int | None, str, str]:
    """Install the filter on this thread: (the listener for the attempt watch or None, the
    seccomp layer's state, the attempt watch's state)."""
    machine = os.uname().machine
    if watch:
        code, state = program(machine, watch=True)
        if code:
            fprog, _table = _fprog(code)
            number = NUMBERS[machine][1]["seccomp"]
            flags = SECCOMP_FILTER_FLAG_NEW_LISTENER
            listener = libc.syscall(number, SECCOMP_SET_MODE_FILTER, flags, ctypes.byref(fprog))
            if listener >= 0:
                return int(listener), HELD, HELD
            why = f"{NOT_AVAILABLE} ({os.strerror(ctypes.get_errno())})"
        else:
            why = state
    else:
        why = f"{NOT_AVAILABLE} (turned off)"
    code, state = program(machine, watch=False)
    if not code:
        return None, state, why
    fprog, _table = _fprog(code)
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        return None, f"{NOT_AVAILABLE} ({os.strerror(ctypes.get_errno())})", why
    return None, HELD, why
