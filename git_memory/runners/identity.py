"""Which user a model runner runs as inside its OS sandbox.

Run as root (containers, CI), `git memory` gives the runner a user and group id that no
account of this host has — so it owns nothing of the host's: not root's 0600 files, not
root's terminal — and the runner really runs as that id (`drop`). Run as anyone else, the
kernel lets an unprivileged user namespace map only the caller's own id: the runner is the
caller (`map`), and what keeps it from the caller's files is the allow-listed root.
"""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass

if sys.platform != "win32":  # the account database
    import grp
    import pwd

# The first id tried: high, below 2^31 (some programs read ids as signed), and far above the
# ranges distributions hand out to accounts (1000–60000) and containers (100000–…).
RUNNER_ID = 2_147_483_630
NOBODY = 65534
OVERFLOW = (65534, 65535, 4_294_967_295)


@dataclass(frozen=True)
class Identity:
    """The runner's user and group, and whether the sandbox drops to them (we are root)."""

    uid: int
    gid: int
    drop: bool


def _ranges(map_file: str) -> list[tuple[int, int]]:
    """(first, count) of the ids our user namespace maps (all of them outside Linux)."""
    try:
        with open(map_file, encoding="ascii") as handle:
            rows = [line.split() for line in handle]
    except OSError:
        return [(0, 4_294_967_295)]
    return [(int(row[0]), int(row[2])) for row in rows if len(row) == 3]


def _has_account(number: int, group: bool) -> bool:
    with contextlib.suppress(KeyError, OverflowError):
        if group:
            grp.getgrgid(number)
        else:
            pwd.getpwuid(number)
        return True
    return False


def free_id(map_file: str, group: bool) -> int | None:
    """An id mapped here that no account (or group) has; None when there is none."""
    ranges = _ranges(map_file)
    candidates = [RUNNER_ID]
    for first, count in ranges:
        top = first + count - 1
        candidates += range(top, max(top - 64, first), -1)
    for number in candidates:
        mapped = any(first <= number < first + count for first, count in ranges)
        if mapped and number not in OVERFLOW and number != 0 and not _has_account(number, group):
            return number
    return None


def mapped_identity() -> Identity:
    """The runner as the caller, in a user namespace (root is seen as nobody there)."""
    if sys.platform == "win32" or os.geteuid() == 0:
        return Identity(NOBODY, NOBODY, drop=False)
    return Identity(os.getuid(), os.getgid() or NOBODY, drop=False)


def runner_identity() -> Identity:
    """The runner's identity for this process: an id of its own when we are root and one
    is free, else the caller's."""
    if sys.platform == "win32" or os.geteuid() != 0:
        return mapped_identity()
    uid = free_id("/proc/self/uid_map", group=False)
    gid = free_id("/proc/self/gid_map", group=True)
    if uid is None or gid is None:  # only root is mapped here
        return mapped_identity()
    return Identity(uid, gid, drop=True)
