"""Resolve a runner binary and fingerprint it (realpath + content sha256) before any spawn."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from git_memory.errors import GitMemoryError


@dataclass(frozen=True)
class BinaryIdentity:
    """Where the binary really is and what bytes it has; a conformance record binds both."""

    invoked: Path  # the path as found (its directory goes on the runner's PATH)
    realpath: Path
    content_sha256: str


def resolve_binary(name: str, environ: Mapping[str, str] | None = None) -> Path:
    """A path containing `/` is used as is; a bare name is looked up on PATH (first X_OK)."""
    env = os.environ if environ is None else environ
    if "/" in name:
        candidate = Path(name)
        if not candidate.is_absolute():
            candidate = Path.cwd() / candidate
        return _check_executable(candidate, name)
    for directory in env.get("PATH", "").split(os.pathsep):
        if not directory:
            continue
        candidate = Path(directory) / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    raise GitMemoryError(
        "GM_RUNNER_BINARY_UNREADABLE",
        f"runner program {name!r} was not found on PATH",
        hint="install it, or point GIT_MEMORY_RUNNER_BIN at the executable",
    )


def _check_executable(candidate: Path, name: str) -> Path:
    if not candidate.is_file() or not os.access(candidate, os.X_OK):
        raise GitMemoryError(
            "GM_RUNNER_BINARY_UNREADABLE",
            f"runner program {name!r} is not an executable file",
        )
    return candidate


def identify(name: str, environ: Mapping[str, str] | None = None) -> BinaryIdentity:
    """Resolve `name` and hash the file it really is (reading never executes it)."""
    invoked = resolve_binary(name, environ)
    real = Path(os.path.realpath(invoked))
    hasher = hashlib.sha256()
    try:
        with open(real, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                hasher.update(block)
    except OSError as exc:
        raise GitMemoryError(
            "GM_RUNNER_BINARY_UNREADABLE",
            f"cannot read runner program {name!r}: {exc.strerror}",
        ) from exc
    return BinaryIdentity(invoked=invoked, realpath=real, content_sha256=hasher.hexdigest())
