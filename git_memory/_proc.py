"""The only module that starts subprocesses.

Git itself is read through pygit2, except the staged snapshot the pre-commit hook lints
(`repo/staged.py` runs read-only `git` commands, cheaper to start than pygit2 is to import);
subprocesses are also for runners (model CLIs) and `doctor`'s man page probe. Inherited
`GIT_*` variables are scrubbed by default (a caller that passes no `env` gets
`scrubbed_environment()`), so a hook's environment (GIT_INDEX_FILE, GIT_DIR, …) never leaks
into a child that was not meant to see it; a caller that needs some passes its own `env`.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from git_memory.records import Record

if TYPE_CHECKING:  # pathlib costs the pre-commit hook's start-up, and only annotations use it
    from pathlib import Path


def scrubbed_environment(
    base: Mapping[str, str] | None = None, *, keep_git: Sequence[str] = ()
) -> dict[str, str]:
    """A copy of the environment without inherited `GIT_*` variables (except `keep_git`)."""
    source = os.environ if base is None else base
    return {
        key: value for key, value in source.items() if not key.startswith("GIT_") or key in keep_git
    }


def run(
    argv: Sequence[str],
    *,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    input_bytes: bytes | None = None,
    timeout: float | None = None,
    capture: bool = True,
) -> subprocess.CompletedProcess[bytes]:
    """Run a short-lived command to completion (no shell); `env` defaults to the scrubbed
    environment."""
    return subprocess.run(
        list(argv),
        cwd=cwd,
        env=dict(env) if env is not None else scrubbed_environment(),
        input=input_bytes,
        timeout=timeout,
        capture_output=capture,
        check=False,
    )


def popen(
    argv: Sequence[str],
    *,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    new_session: bool = True,
) -> subprocess.Popen[bytes]:
    """Start a long-running child with pipes, in its own process group by default; `env`
    defaults to the scrubbed environment."""
    return subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=dict(env) if env is not None else scrubbed_environment(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=new_session,
    )


class BoundedResult(Record):
    """What a bounded run observed; the caller decides which observation is an error.

    `stdout`/`stderr` hold at most their caps. `returncode` is None when the child was killed
    before it exited on its own (timeout or output cap). A named tuple, not a dataclass: the
    pre-commit hook imports this module, and `dataclasses` (with `inspect`) is a measured cost
    of its start-up (docs/performance.md); a changed copy is `result._replace(...)`.
    """

    returncode: int | None
    stdout: bytes
    stderr: bytes
    timed_out: bool = False
    stdout_overflow: bool = False
    stderr_overflow: bool = False
    lingering: bool = False
    # Requests the runner's egress proxy refused (set by the runner sandbox, not here).
    egress_refused: int = 0
    # The runner sandbox's report: layers that held, attempts it contained (set there too).
    sandbox_report: dict[str, Any] | None = None


def process_exists(pid: int) -> bool:
    """Whether a process with this pid exists (signal 0 probes without sending anything)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # it exists under another user (or the number is not a pid at all)
    return True


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _group_alive(pgid: int) -> bool:
    """Is any process of the group still running? Zombies do not count: an init that never
    reaps (common in containers) would otherwise make every orphan look alive forever."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a member exists but changed credentials: still alive
        return True
    if not os.path.isdir("/proc"):
        return True
    return any(_running_member(entry, pgid) for entry in os.scandir("/proc"))


_PR_SET_CHILD_SUBREAPER = 36


def _set_subreaper(on: bool) -> bool:
    """Make orphans of our descendants our children (Linux); False where unsupported."""
    # Start-up seam (docs/architecture.md): the pre-commit hook loads this module; ctypes.util
    # finds libc through `ldconfig`, and only a runner needs a subreaper.
    import ctypes  # noqa: PLC0415
    import ctypes.util  # noqa: PLC0415

    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return int(libc.prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _children() -> set[int]:
    """Pids whose parent is this process (zombies included: they are ours to reap)."""
    if not os.path.isdir("/proc"):
        return set()
    me = os.getpid()
    found: set[int] = set()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me:
            found.add(int(entry.name))
    return found


def _sweep_adopted(known: set[int]) -> bool:
    """Kill and reap processes that became our children while a runner ran (a `setsid`
    escape re-parented to us as subreaper); True when there were any that still ran."""
    lingering = False
    for _round in range(20):  # killing one re-parents its own children to us: repeat
        adopted = _children() - known
        if not adopted:
            break
        for pid in adopted:
            lingering = lingering or _alive(pid)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
    return lingering


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in (b"Z", b"X")


def _running_member(entry: os.DirEntry[str], pgid: int) -> bool:
    if not entry.name.isdigit():
        return False
    try:
        with open(f"/proc/{entry.name}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
    except OSError:
        return False
    return int(fields[2]) == pgid and fields[0] not in (b"Z", b"X")


class _Pump:
    """Moves stdin in and stdout/stderr out of one child without deadlocking on full pipes."""

    def __init__(self, proc: subprocess.Popen[bytes], data: bytes, caps: tuple[int, int]) -> None:
        self.proc = proc
        self.data = memoryview(data)
        self.caps = caps
        self.out = bytearray()
        self.err = bytearray()
        self.overflow: tuple[bool, bool] = (False, False)
        self.selector = selectors.DefaultSelector()
        assert proc.stdin is not None
        assert proc.stdout is not None
        assert proc.stderr is not None
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            os.set_blocking(stream.fileno(), False)
        if self.data:
            self.selector.register(proc.stdin, selectors.EVENT_WRITE)
        else:
            proc.stdin.close()
        self.selector.register(proc.stdout, selectors.EVENT_READ, 0)
        self.selector.register(proc.stderr, selectors.EVENT_READ, 1)

    def open_streams(self) -> int:
        return len(self.selector.get_map())

    def step(self, wait: float) -> None:
        for key, _events in self.selector.select(max(wait, 0.0)):
            if key.fileobj is self.proc.stdin:
                self._write()
            else:
                self._read(key)

    def _write(self) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            written = os.write(stdin.fileno(), self.data[:65536])
        except BlockingIOError:
            return
        except BrokenPipeError:  # the child stopped reading: what it got is what it gets
            written = len(self.data)
        self.data = self.data[written:]
        if not self.data:
            self.selector.unregister(stdin)
            with contextlib.suppress(BrokenPipeError):
                stdin.close()

    def _read(self, key: selectors.SelectorKey) -> None:
        try:
            chunk = os.read(key.fd, 65536)
        except BlockingIOError:
            return
        if not chunk:
            self.selector.unregister(key.fileobj)
            return
        index = int(key.data)
        sink = self.out if index == 0 else self.err
        sink.extend(chunk)
        if len(sink) > self.caps[index]:
            del sink[self.caps[index] :]
            flags = list(self.overflow)
            flags[index] = True
            self.overflow = (flags[0], flags[1])

    def close(self) -> None:
        for key in list(self.selector.get_map().values()):
            self.selector.unregister(key.fileobj)
        self.selector.close()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


def run_bounded(
    argv: Sequence[str],
    *,
    input_bytes: bytes,
    env: Mapping[str, str],
    cwd: Path | str,
    timeout: float,
    stdout_limit: int,
    stderr_limit: int,
    exit_grace: float = 0.5,
) -> BoundedResult:
    """Run `argv` in its own process group with stdin written once and hard limits.

    Exceeding `timeout` or an output cap SIGKILLs the whole group at once. After the child
    exits, any process still in its group is a lingering child: it is reported and killed.
    A descendant that left the group (`setsid`) is caught too: while the child runs this
    process is a child subreaper, so such an orphan becomes our child and is killed and
    reported the same way. Raises OSError when the program cannot be started.
    """
    known = _children()
    subreaper = _set_subreaper(True)
    try:
        caps = (stdout_limit, stderr_limit)
        result = _run_group(
            argv,
            input_bytes=input_bytes,
            env=env,
            cwd=cwd,
            timeout=timeout,
            caps=caps,
            exit_grace=exit_grace,
        )
        if subreaper and _sweep_adopted(known) and not result.lingering:
            result = result._replace(lingering=True)
        return result
    finally:
        if subreaper:
            _set_subreaper(False)


def _run_group(
    argv: Sequence[str],
    *,
    input_bytes: bytes,
    env: Mapping[str, str],
    cwd: Path | str,
    timeout: float,
    caps: tuple[int, int],
    exit_grace: float,
) -> BoundedResult:
    proc = popen(argv, cwd=cwd, env=env, new_session=True)
    pump = _Pump(proc, input_bytes, caps)
    deadline = time.monotonic() + timeout
    exited_at: float | None = None
    timed_out = False
    try:
        while pump.open_streams():
            now = time.monotonic()
            if any(pump.overflow):
                break
            if now >= deadline:
                timed_out = True
                break
            if exited_at is None and proc.poll() is not None:
                exited_at = now
            if exited_at is not None and now - exited_at > exit_grace:
                break  # a child of the runner holds the pipes open; the group check sees it
            pump.step(min(deadline - now, 0.05))
        if timed_out or any(pump.overflow):
            _kill_group(proc.pid)
            proc.wait()
            return BoundedResult(None, bytes(pump.out), bytes(pump.err), timed_out, *pump.overflow)
        returncode = _wait_until(proc, deadline)
        if returncode is None:
            _kill_group(proc.pid)
            proc.wait()
            return BoundedResult(None, bytes(pump.out), bytes(pump.err), timed_out=True)
        lingering = _group_alive(proc.pid)
        if lingering:
            _kill_group(proc.pid)
        return BoundedResult(returncode, bytes(pump.out), bytes(pump.err), lingering=lingering)
    finally:
        pump.close()
        if proc.poll() is None:
            _kill_group(proc.pid)
            proc.wait()


def _wait_until(proc: subprocess.Popen[bytes], deadline: float) -> int | None:
    try:
        return proc.wait(timeout=max(deadline - time.monotonic(), 0.0))
    except subprocess.TimeoutExpired:
        return None
