"""What a runner tried that its profile denies, as the sandbox saw it, in words.

The sandbox init's attempt watch reports each file a runner reached for outside its view,
each write outside its own directories, each connection other than to its egress proxy and
each unix socket, with the layer that stopped it; the egress proxy names each tunnel it
refused. A read of a path that does not exist on the host either is a program looking for
an optional file (Python's `python311.zip`, a preloaded-libraries list), and a write into a
directory the host does not have either is made up from nothing: there was nothing to
reach, and neither is an attempt; nor is a look at what the profile's CLI reads at every
start and is not given (`view_paths.PROFILE_LOOKUPS`). Every other one is, whether or not
the sandbox contained it: conformance refuses a runner that makes any
(`GM_RUNNER_NONCONFORMANT`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any


def _reachable(what: str, target: str) -> bool:
    """Whether there is something on the host the attempt reached for: the file read, or
    the file or directory written in (a path made up from nothing is no one's)."""
    if what == "read":
        return os.path.lexists(target)
    if what == "write":
        return os.path.lexists(target) or os.path.isdir(os.path.dirname(target))
    return True


def attempts_in(report: Mapping[str, Any] | None, expected: Sequence[str] = ()) -> list[str]:
    """Each attempt of a sandbox report: `"read /root/.ssh/id_rsa: stopped by allow-list
    root"`, in the order they were made (the proxy's refusals last). `expected`: paths the
    runner's CLI reads at every start and its view leaves out (`view_paths.looked_for`)."""
    if not report:
        return []
    found: list[str] = []
    for item in report.get("attempts") or []:
        if not isinstance(item, dict):
            continue
        what, target, layer = (str(item.get(key, "")) for key in ("what", "target", "layer"))
        if (what == "read" and target in expected) or not _reachable(what, target):
            continue
        found.append(f"{what} {target}".rstrip() + f": stopped by {layer}")
    for asked in report.get("egressRefused") or []:
        found.append(f"{asked} through the egress proxy: stopped by egress proxy")
    return list(dict.fromkeys(found))
