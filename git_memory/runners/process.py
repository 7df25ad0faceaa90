"""Run a model runner once: isolated environment, own process group, stdin written once.

`spawn` returns what happened; `run_checked` turns it into errors. A timeout or an output cap
kills the whole process group; a child left running after the runner exits is lingering.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from git_memory import _proc
from git_memory.errors import GitMemoryError
from git_memory.runners.binary import BinaryIdentity
from git_memory.runners.environment import isolated
from git_memory.runners.profiles import ResolvedProfile
from git_memory.runners.sandbox import Boxed, sandboxed
from git_memory.runners.sandbox_init import EXEC_FAILED_EXIT, LINGERING_EXIT, SETUP_FAILED_EXIT


def argv_for(profile: ResolvedProfile, binary: BinaryIdentity) -> list[str]:
    """The production argv: the hashed file itself, then the profile's fixed arguments."""
    return [str(binary.realpath), *profile.argv_template]


def spawn(
    profile: ResolvedProfile,
    binary: BinaryIdentity,
    stdin: bytes,
    *,
    cwd: Path | None = None,
    host_env: Mapping[str, str] | None = None,
    temp_root: Path | None = None,
    argv: list[str] | None = None,
    timeout_ms: int | None = None,
    watch: Sequence[int] = (),
    write: Sequence[Path] = (),
    read: Sequence[Path] = (),
) -> _proc.BoundedResult:
    """Start the runner in a one-time environment (inside the OS sandbox where there is
    one) and collect its bounded output.

    In the sandbox the runner sees only its allow-listed root (`read`: more read-only
    paths) and may write only its one-time tree, `cwd` when one is given and `write`
    (directories made for this run); a connection to a loopback port of `watch` is counted
    in the sandbox report, and every attempt the attempt watch saw is listed there."""
    env_source = os.environ if host_env is None else host_env
    program = argv or argv_for(profile, binary)
    with isolated(profile, binary, host_env=host_env, temp_root=temp_root) as isolation:
        workdir = cwd or isolation.workspace
        own = [isolation.root, *([cwd] if cwd is not None else []), *write]
        with sandboxed(
            profile,
            program,
            env_source,
            runner_env=isolation.env,
            own=own,
            read=read,
            watch=watch,
            cwd=workdir,
        ) as boxed:
            try:
                result = _proc.run_bounded(
                    boxed.command,
                    input_bytes=stdin,
                    env=isolation.env,
                    cwd=workdir,
                    timeout=(timeout_ms or profile.timeout_ms) / 1000,
                    stdout_limit=profile.max_output_bytes,
                    stderr_limit=profile.max_stderr_bytes,
                )
            except OSError as exc:
                raise GitMemoryError(
                    "GM_RUNNER_SPAWN_FAILED",
                    f"cannot start the {profile.name} runner: {exc.strerror or exc}",
                ) from exc
            return _from_sandbox(profile, result, boxed, program)


def _from_sandbox(
    profile: ResolvedProfile, result: _proc.BoundedResult, boxed: Boxed, program: list[str]
) -> _proc.BoundedResult:
    """The sandbox init's own exit statuses turned back into what they mean."""
    if boxed.command == program:
        return result
    refused = boxed.proxy.refused if boxed.proxy is not None else 0
    report = boxed.report()
    if report is not None and boxed.proxy is not None:
        report["egressRefused"] = list(boxed.proxy.refused_targets)
    if result.returncode == SETUP_FAILED_EXIT:
        raise GitMemoryError(
            "GM_RUNNER_SANDBOX_FAILED",
            f"the OS sandbox of the {profile.name} runner could not be set up",
            hint="see `git memory doctor`; GIT_MEMORY_RUNNER_SANDBOX=off runs without it",
            details={"stderr": _excerpt(result.stderr)},
        )
    if result.returncode == EXEC_FAILED_EXIT:
        uid = boxed.identity.uid if boxed.identity and boxed.identity.drop else None
        raise GitMemoryError(
            "GM_RUNNER_SPAWN_FAILED",
            f"cannot start the {profile.name} runner: {_excerpt(result.stderr)}",
            hint=None
            if uid is None
            else f"the runner runs as user id {uid}, which owns nothing here: its program, "
            "and the directory it is in, must be open to others (mode 755)",
        )
    if result.returncode == LINGERING_EXIT:
        return result._replace(
            returncode=0, lingering=True, egress_refused=refused, sandbox_report=report
        )
    return result._replace(egress_refused=refused, sandbox_report=report)


def check_result(profile: ResolvedProfile, result: _proc.BoundedResult) -> bytes:
    """The runner's stdout, or the error that describes how the run failed."""
    if result.timed_out:
        raise GitMemoryError(
            "GM_RUNNER_TIMEOUT",
            f"the {profile.name} runner did not finish within {profile.timeout_ms} ms",
            hint="its whole process group was killed; nothing was stored",
        )
    if result.stdout_overflow or result.stderr_overflow:
        stream = "stdout" if result.stdout_overflow else "stderr"
        raise GitMemoryError(
            "GM_RUNNER_OUTPUT_LIMIT",
            f"the {profile.name} runner wrote more {stream} than allowed",
            details={"stream": stream},
        )
    if result.lingering:
        raise GitMemoryError(
            "GM_RUNNER_LINGERING",
            f"the {profile.name} runner left processes running; they were killed",
        )
    if result.returncode != 0:
        raise GitMemoryError(
            "GM_RUNNER_EXIT",
            f"the {profile.name} runner exited with status {result.returncode}",
            details={"status": result.returncode, "stderr": _excerpt(result.stderr)},
        )
    return result.stdout


def _excerpt(stderr: bytes) -> str:
    text = stderr.decode("utf-8", "replace").strip()
    return text[-2000:]


def run_checked(
    profile: ResolvedProfile,
    binary: BinaryIdentity,
    stdin: bytes,
    *,
    host_env: Mapping[str, str] | None = None,
    temp_root: Path | None = None,
) -> bytes:
    """Run the runner and return its stdout, raising `GM_RUNNER_*` on any failure."""
    result = spawn(profile, binary, stdin, host_env=host_env, temp_root=temp_root)
    return check_result(profile, result)
