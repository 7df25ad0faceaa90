"""Individual doctor checks. Each returns a DoctorCheck; none changes anything."""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Literal

from git_memory import __version__, _proc
from git_memory.contracts.base import Model
from git_memory.runners.identity import Identity
from git_memory.runners.isolation_check import probe_sandbox
from git_memory.runners.refusal import load_refusal
from git_memory.runners.sandbox import current_status, describe_layers, missing_layers
from git_memory.sessions.discover import discover
from git_memory.sessions.providers.table import providers


class DoctorCheck(Model):
    """One check: `fail` needs action, `warn` is worth knowing."""

    name: str
    status: Literal["ok", "warn", "fail"]
    detail: str
    hint: str | None = None


def check_version() -> DoctorCheck:
    """The installed version and interpreter."""
    return DoctorCheck(
        name="version",
        status="ok",
        detail=f"git memory {__version__} on Python "
        f"{sys.version_info.major}.{sys.version_info.minor}",
    )


def check_man_page() -> DoctorCheck:
    """`git memory --help` becomes `git help memory`, which needs the man page on MANPATH."""
    installed = Path(sys.prefix) / "share" / "man" / "man1" / "git-memory.1"
    if not installed.is_file():
        return DoctorCheck(
            name="man page",
            status="fail",
            detail="git-memory.1 is not installed",
            # The interpreter git memory runs on: its virtual environment's, as README.md
            # sets it up (a system Python refuses `pip install`).
            hint=f"reinstall the package from its clone: {sys.executable} -m pip install .",
        )
    if shutil.which("man") is None:
        return DoctorCheck(
            name="man page", status="warn", detail="man(1) is not installed; use `git memory -h`"
        )
    found = _proc.run(["man", "-w", "git-memory"], env=_user_environment(), timeout=10)
    if found.returncode == 0:
        return DoctorCheck(
            name="man page", status="ok", detail="`git help memory` finds the man page"
        )
    return DoctorCheck(
        name="man page",
        status="warn",
        detail="`git help memory` cannot find the installed page",
        hint=f'export MANPATH="{installed.parent.parent}:$MANPATH"',
    )


def _user_environment() -> dict[str, str]:
    """The environment of the user's shell, as far as it can be told from here.

    A version manager's shim (pyenv) runs us with the interpreter's bin directory put first
    on PATH; `man` derives its search path from PATH, so it would find pages the user's own
    `git help memory` cannot. That entry is dropped for the check.
    """
    env = dict(os.environ)
    entries = env.get("PATH", "").split(os.pathsep)
    own = str(Path(sys.executable).parent)
    if env.get("PYENV_ROOT") and entries and entries[0] == own:
        env["PATH"] = os.pathsep.join(entries[1:])
    return env


def check_state_home(home: Path) -> DoctorCheck:
    """The state home exists as a private directory with private files."""
    if not home.exists():
        return DoctorCheck(name="state home", status="ok", detail=f"{home} (created on first use)")
    if home.is_symlink() or not home.is_dir():
        return DoctorCheck(
            name="state home",
            status="fail",
            detail=f"{home} is not a plain directory",
            hint="point GIT_MEMORY_HOME (or git config memory.home) at a directory",
        )
    loose = [p.name for p in [home, *home.iterdir()] if _too_open(p)]
    if loose:
        return DoctorCheck(
            name="state home",
            status="fail",
            detail=f"{home}: not private: {', '.join(sorted(loose))}",
            hint=f"chmod 700 {home} and chmod 600 the files in it",
        )
    return DoctorCheck(name="state home", status="ok", detail=f"{home} (private)")


def _too_open(path: Path) -> bool:
    info = path.lstat()
    mode = stat.S_IMODE(info.st_mode)
    return bool(mode & 0o077) if not stat.S_ISLNK(info.st_mode) else True


def check_transcripts(enabled: list[str] | None = None) -> DoctorCheck:
    """Which agents' history directories exist and how many sessions each holds.

    `enabled` are the agents `memory.sources` turns on (default: every registered agent)."""

    table = providers()
    names = list(table) if enabled is None else enabled
    homes = [(name, table[name].home()) for name in names]
    found: list[str] = []
    total = 0
    for name, root in homes:
        if root.is_dir():
            count = sum(1 for f in discover([(name, root)]) if f.excluded is None)
            found.append(f"{name}: {count} transcript(s) in {_shown(root)}")
            total += count
    off = [name for name in table if name not in names]
    suffix = f"; off by memory.sources: {', '.join(off)}" if off else ""
    if not total:
        looked = ", ".join(f"{name} in {_shown(root)}" for name, root in homes)
        variables = ", ".join(table[name].variable for name in names)
        return DoctorCheck(
            name="transcripts",
            status="warn",
            detail=f"no agent history found (looked for {looked}){suffix}",
            hint=f"set {variables} if they live elsewhere",
        )
    return DoctorCheck(name="transcripts", status="ok", detail=", ".join(found) + suffix)


def _shown(path: Path) -> str:
    """A local path for the person at this terminal, home written as `~`."""
    home = Path.home()
    return "~/" + str(path.relative_to(home)) if path.is_relative_to(home) else str(path)


def check_runner_sandbox() -> DoctorCheck:
    """Whether model runners get the OS sandbox here, said plainly when they do not; when
    they do, our isolation probe is run in it as a runner would be, and each layer that
    held and each attempt it contained is named (as `reverify-runner` does)."""
    found = current_status()
    if not found.available:
        return DoctorCheck(
            name="runner sandbox",
            status="warn",
            detail=f"no OS sandbox ({found.reason}): model runners are isolated by their "
            "environment only and can read your files, other processes' environments and "
            "the network",
            hint="on Linux, install util-linux `unshare` and allow unprivileged user "
            "namespaces; or use the builtin runner or the agent in your conversation",
        )
    with tempfile.TemporaryDirectory(prefix="git-memory-doctor-") as base:
        result = probe_sandbox(Path(base))
    missing = missing_layers(result.layers)
    let_through = [f"{check}: {detail}" for check, detail in result.failures]
    detail = (
        f"OS sandbox ({found.reason}); runner {_runner_id(found.identity)}; "
        f"layers: {describe_layers(result.layers)}; {_contained(result.contained)}"
    )
    if let_through:
        return DoctorCheck(
            name="runner sandbox",
            status="fail",
            detail=f"{detail}; NOT contained: {'; '.join(let_through)}",
            hint="model runners are not isolated here; use the builtin runner",
        )
    return DoctorCheck(
        name="runner sandbox",
        status="warn" if missing else "ok",
        detail=detail,
        hint=f"not available here: {', '.join(missing)}" if missing else None,
    )


def _runner_id(identity: Identity | None) -> str:
    if identity is None:
        return "id unknown"
    if identity.drop:
        return f"uid {identity.uid}, gid {identity.gid}: no account of this host"
    return f"uid {identity.uid}: the caller's own"


def _contained(contained: list[str]) -> str:
    """The probe's own attempts, and what the attempt watch saw, counted by layer."""
    own = [line for line in contained if ": stopped by " not in line]
    layers = Counter(line.rsplit(": stopped by ", 1)[1] for line in contained if line not in own)
    watched = ", ".join(f"{layer} {count}" for layer, count in sorted(layers.items()))
    text = f"contained: {'; '.join(own) or 'nothing was tried'}"
    return f"{text}; attempts seen, by the layer that stopped them: {watched}" if watched else text


def check_runners(state_home: Path) -> list[DoctorCheck]:
    """Model CLIs on PATH and whether each has a valid conformance record."""
    checks = []
    for name in ("claude", "codex"):
        binary = shutil.which(os.environ.get(f"GIT_MEMORY_{name.upper()}_BIN", name))
        if binary is None:
            checks.append(
                DoctorCheck(
                    name=f"runner {name}",
                    status="warn",
                    detail="not on PATH (optional: the agent "
                    "in your conversation and the builtin runner need no CLI)",
                )
            )
            continue
        record = state_home / "artifacts" / "conformance" / f"{name}.json"
        refusal = load_refusal(state_home, name)
        if refusal is not None:
            tried = [str(attempt) for attempt in refusal["attempts"]]
            checks.append(
                DoctorCheck(
                    name=f"runner {name}",
                    status="fail",
                    detail=f"{binary}; refused: it tried what its profile denies "
                    f"[GM_RUNNER_NONCONFORMANT]: {'; '.join(tried[:3])}",
                    hint=f"fix its setup, then git memory reverify-runner --runner {name}",
                )
            )
        elif record.is_file():
            checks.append(
                DoctorCheck(
                    name=f"runner {name}",
                    status="ok",
                    detail=f"{binary}; conformance record cached (re-checked before every run)",
                )
            )
        else:
            checks.append(
                DoctorCheck(
                    name=f"runner {name}",
                    status="warn",
                    detail=f"{binary}; not verified yet",
                    hint=f"git memory reverify-runner --runner {name}",
                )
            )
    return checks
