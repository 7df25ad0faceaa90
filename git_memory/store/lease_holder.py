"""Which process holds a task lease, and whether it still runs.

A lease holder is recorded as `<name> pid=<pid> start=<start> boot=<boot id>`: the pid alone
could be reused by an unrelated process, the start time (clock ticks since boot, from
`/proc/<pid>/stat`) and the boot id pin it to one process of one boot. Without `/proc` (not
Linux) only the pid is checked. A holder recorded on another boot or machine, or in an older
format, is never declared gone: its lease simply runs until it expires.
"""

from __future__ import annotations

import os
import re
from functools import cache

from git_memory._proc import process_exists

_IDENTITY = re.compile(r"^pid=(\d+) start=(\d*) boot=([0-9a-f-]*)$")
_SUFFIX = re.compile(r" (pid=\d+ start=\d* boot=[0-9a-f-]*)$")


def split_holder(stored: str | None) -> tuple[str | None, str]:
    """(holder name, process identity or "") of a stored `lease_holder`."""
    if stored is None:
        return None, ""
    match = _SUFFIX.search(stored)
    if match is None:
        return stored, ""
    return stored[: match.start()], match.group(1)


def _start_ticks(pid: int) -> str | None:
    """Field 22 of `/proc/<pid>/stat`; "" without /proc, None when the process is gone."""
    if not os.path.isdir("/proc/self"):
        return ""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    except OSError:
        return ""
    # A zombie has exited: the lease it held is not being worked on any more.
    return None if fields[0] in (b"Z", b"X") else fields[19].decode()


@cache
def _boot_id() -> str:
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as handle:
            return handle.read().strip()
    except OSError:
        return ""


def this_process() -> str:
    """The identity suffix of the calling process."""
    pid = os.getpid()
    return f"pid={pid} start={_start_ticks(pid) or ''} boot={_boot_id()}"


def holder_is_gone(process: str) -> bool:
    """True only when `process` (an identity) names a process of this boot that has ended."""
    match = _IDENTITY.match(process)
    if match is None or match.group(3) != _boot_id():
        return False
    pid, start = int(match.group(1)), match.group(2)
    current = _start_ticks(pid)
    if current is None:
        return True
    if current == "" or start == "":
        return not process_exists(pid)
    return current != start
