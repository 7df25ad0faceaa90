"""A runner that tried what its profile denies is refused until it passes conformance again.

When the conformance probe saw a runner try anything its profile denies, what it tried is
kept in `<state home>/artifacts/conformance/<runner>.refused.json` (with the profile digest
and the binary's bytes it concerns); so is what a runner tried while answering a delivery.
Until `git memory reverify-runner` passes for that runner, an approved delivery does not
start it (`GM_RUNNER_NONCONFORMANT`) and `git memory doctor` names it as refused. A new
binary or another profile is probed afresh.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from git_memory.contracts.base import format_timestamp
from git_memory.errors import GitMemoryError
from git_memory.paths import ARTIFACTS_DIR, ensure_private_dir, read_private, write_private_atomic
from git_memory.runners.binary import BinaryIdentity
from git_memory.runners.profiles import ResolvedProfile

SHOWN = 5


def refusal_path(state_home: Path, name: str) -> Path:
    """`<state home>/artifacts/conformance/<runner>.refused.json` (directories made 0700)."""
    directory = ensure_private_dir(ensure_private_dir(state_home / ARTIFACTS_DIR) / "conformance")
    return directory / f"{name}.refused.json"


def remember_refusal(
    state_home: Path, profile: ResolvedProfile, binary: BinaryIdentity, tried: list[str]
) -> None:
    """Keep what the runner tried, for this profile and these binary bytes."""
    refusal = {
        "profileDigest": profile.digest,
        "binaryContentSha256": binary.content_sha256,
        "refusedAt": format_timestamp(datetime.now(UTC)),
        "attempts": tried,
    }
    write_private_atomic(
        refusal_path(state_home, profile.name), (json.dumps(refusal) + "\n").encode()
    )


def refuse_attempts(
    state_home: Path, profile: ResolvedProfile, binary: BinaryIdentity, tried: list[str]
) -> None:
    """Remember and refuse a runner that tried what its profile denies while answering."""
    remember_refusal(state_home, profile, binary, tried)
    raise GitMemoryError(
        "GM_RUNNER_NONCONFORMANT",
        f"the {profile.name} runner tried what its profile denies while it answered; its "
        f"answer was not used: {'; '.join(tried[:SHOWN])}",
        hint=f"fix the runner's setup, then git memory reverify-runner --runner {profile.name}",
        details={"attempts": tried},
    )


def load_refusal(state_home: Path, name: str) -> dict[str, Any] | None:
    """The kept refusal of runner `name`, or None (an unreadable one counts as none: the
    probe runs again and refuses again)."""
    path = refusal_path(state_home, name)
    if not path.is_file():
        return None
    try:
        found = json.loads(read_private(path))
    except (ValueError, UnicodeDecodeError, OSError):
        return None
    if not isinstance(found, dict) or not isinstance(found.get("attempts"), list):
        return None
    return found


def refuse_if_nonconformant(
    state_home: Path, profile: ResolvedProfile, binary: BinaryIdentity
) -> None:
    """`GM_RUNNER_NONCONFORMANT` when this profile and binary were refused and have not
    passed since."""
    refusal = load_refusal(state_home, profile.name)
    if refusal is None:
        return
    if (refusal.get("profileDigest"), refusal.get("binaryContentSha256")) != (
        profile.digest,
        binary.content_sha256,
    ):
        return
    tried = [str(attempt) for attempt in refusal["attempts"]]
    raise GitMemoryError(
        "GM_RUNNER_NONCONFORMANT",
        f"the {profile.name} runner tried what its profile denies and is refused: "
        + "; ".join(tried[:SHOWN]),
        hint=f"fix the runner's setup, then git memory reverify-runner --runner {profile.name}",
        details={"attempts": tried, "refusedAt": refusal.get("refusedAt")},
    )
