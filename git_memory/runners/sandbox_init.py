"""The first process inside a runner's OS sandbox: pid 1 of its own pid namespace.

`git_memory.runners.sandbox` starts it (`python -I -S -c`, importing only this package's
standard-library modules: `sandbox_calls`, `sandbox_filter`, `sandbox_net`,
`sandbox_privileges`, `sandbox_view`, `sandbox_watch` and `splice`) inside fresh pid, mount
and network namespaces made by `unshare` — and a user namespace when `git memory` is not
root. It

1. builds the runner's root from the allow-list (`sandbox_view.py`): `--ro` paths read-only,
   `--rw` paths writable, nothing else of the host's tree, no terminal;
2. when the runner may reach its model endpoint, brings loopback up and forwards
   `127.0.0.1:<port>` to the host's egress socket, naming it as the runner's proxy; each
   `--watch PORT` is a loopback listener that counts connection attempts (contained: the
   host never sees them);
3. starts the runner in a session of its own, unprivileged: as a user id that owns nothing
   of the host's when we are root (`--identity drop`: `--uid`/`--gid`, no supplementary
   groups) or as the caller's own (`--identity map`), in a nested user and mount namespace
   (so every mount made here is locked and cannot be undone), with an empty capability
   bounding set, no-new-privs and a seccomp filter (`sandbox_filter.py`) whose watched calls
   the attempt watch (`sandbox_watch.py`) judges;
4. reaps every orphan while the runner runs, and when it exits kills whatever is left in the
   namespace (a `setsid` escape cannot leave it) and reports that with exit status 249 (248:
   the sandbox could not be set up; 247: the program could not be started);
5. sends a JSON report (`--report SOCKET`, reached through a directory handle held from
   before the view was built) naming each isolation layer that held, each contained
   connection it counted and each attempt the watch saw, with the layer that stopped it.

Usage: … [--ro P]... [--rw P]... [--watch PORT]... [--egress SOCKET] [--report SOCKET]
       [--cwd DIR] [--uid N] [--gid N] [--identity drop|map] [--seccomp off] -- PROGRAM ARGS...
(`--seccomp off` leaves the filter and the watch out, so that each other layer can be shown
to hold alone.)
"""

from __future__ import annotations

import contextlib
import ctypes
import marshal
import os
import signal
import socket
import sys

from git_memory.runners.sandbox_net import Watch, loopback_up
from git_memory.runners.sandbox_privileges import take_listener, unprivileged
from git_memory.runners.sandbox_view import SetupError, View
from git_memory.runners.sandbox_watch import Judge, Supervisor

LINGERING_EXIT = 249
SETUP_FAILED_EXIT = 248
EXEC_FAILED_EXIT = 247
PR_SET_DUMPABLE = 4
PROXY_VARIABLES = (
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "ALL_PROXY",
    "all_proxy",
)
HELD, NOT_AVAILABLE = "held", "not available"
SINGLE = ("--egress", "--report", "--cwd", "--uid", "--gid", "--identity", "--seccomp")


def _fail(message: str) -> None:
    sys.stderr.write(f"git-memory sandbox: {message}\n")
    sys.stderr.flush()
    os._exit(SETUP_FAILED_EXIT)


class Options:
    """The parsed command line."""

    def __init__(self, argv: list[str]) -> None:
        self.allowed: dict[str, bool] = {}
        self.watch: list[int] = []
        self.single: dict[str, str] = {}
        position = 0
        while position < len(argv) and argv[position] != "--":
            if position + 1 >= len(argv):
                _fail(f"option {argv[position]} has no value")
            flag, value = argv[position], argv[position + 1]
            if flag in ("--ro", "--rw"):
                if not os.path.isabs(value):
                    _fail(f"cannot allow {value!r}: not an absolute path")
                path = os.path.normpath(value)
                self.allowed[path] = self.allowed.get(path, False) or flag == "--rw"
            elif flag == "--watch":
                self.watch.append(int(value))
            elif flag in SINGLE:
                self.single[flag] = value
            else:
                _fail(f"unknown option {flag}")
            position += 2
        self.command = argv[position + 1 :]
        self.ids = (int(self.single.get("--uid", "65534")), int(self.single.get("--gid", "65534")))
        self.drop = self.single.get("--identity") == "drop"


def _libc() -> ctypes.CDLL:
    # glibc's name first; elsewhere the C library this Python is linked with.
    try:
        return ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:
        return ctypes.CDLL(None, use_errno=True)


def _outer_layers(view: View, env: dict[str, str]) -> dict[str, str]:
    interfaces = [name for _index, name in socket.if_nameindex()]
    dirty = [name for name in env if name.lower().endswith("_proxy") and _has_userinfo(env[name])]
    return {
        "allow-list root": _foreign_mount(view),
        "pid ns": HELD if os.getpid() == 1 else NOT_AVAILABLE,
        "mount ns": HELD,
        "net ns": HELD if interfaces == ["lo"] else NOT_AVAILABLE,
        "clean environment": f"failed (credentials in {dirty[0]})" if dirty else HELD,
    }


def _foreign_mount(view: View) -> str:
    """ "held" when every mount in sight is one the view made; else the first other one."""
    with open("/proc/self/mountinfo", encoding="utf-8") as info:
        points = [line.split()[4].replace("\\040", " ") for line in info]
    own = [point for point in view.mounts if point != "/"]
    foreign = [
        point
        for point in points
        if point != "/" and not any(point == m or point.startswith(m + "/") for m in own)
    ]
    return f"failed (a mount of the host's in sight: {foreign[0]})" if foreign else HELD


def _has_userinfo(value: str) -> bool:
    """Whether a proxy URL carries a user (and password): an `@` before its host."""
    return "@" in value.partition("://")[2 if "://" in value else 0]


def _child(libc: ctypes.CDLL, options: Options, env: dict[str, str], pipes: list[int]) -> None:
    said, go = pipes[1], pipes[2]
    os.close(pipes[0])
    os.close(pipes[3])
    try:
        seccomp_on = options.single.get("--seccomp") != "off"
        layers, listener = unprivileged(libc, options.ids, options.drop, seccomp_on)
    except OSError as exc:
        sys.stderr.write(f"git-memory sandbox: cannot drop privileges: {exc.strerror}\n")
        os._exit(SETUP_FAILED_EXIT)
    os.write(said, marshal.dumps({"layers": layers, "listener": listener}))
    os.close(said)
    if os.read(go, 1) != b"1":
        os._exit(SETUP_FAILED_EXIT)
    if listener is not None:
        os.close(listener)
    try:
        _exec(options.command, env)
    except OSError as exc:
        sys.stderr.write(f"git-memory sandbox: cannot run {options.command[0]}: {exc.strerror}\n")
    os._exit(EXEC_FAILED_EXIT)


def _exec(command: list[str], env: dict[str, str]) -> None:
    """`os.execvpe` without its lazy imports (Python's library is not in the view)."""
    name = command[0]
    directories = [d for d in env.get("PATH", "").split(os.pathsep) if d]
    candidates = [name] if "/" in name else [os.path.join(d, name) for d in directories]
    failure = OSError(2, "No such file or directory")
    for candidate in candidates:
        try:
            os.execve(candidate, command, env)
        except OSError as exc:
            failure = exc if exc.errno != 2 or failure.errno == 2 else failure
    raise failure


def _start_runner(
    libc: ctypes.CDLL, options: Options, env: dict[str, str], watcher: tuple[Judge, str | None]
) -> tuple[int, dict[str, str], Supervisor | None]:
    reading, said = os.pipe()
    go, going = os.pipe()
    runner = os.fork()
    if runner == 0:
        _child(libc, options, env, [reading, said, go, going])
    os.close(said)
    os.close(go)
    with os.fdopen(reading, "rb") as pipe:
        heard = pipe.read()
    try:
        told = marshal.loads(heard) if heard else {}
    except (ValueError, EOFError, TypeError):
        told = {}
    layers, listener = told.get("layers", {}), told.get("listener")
    supervisor = None
    try:
        if isinstance(listener, int):
            supervisor = Supervisor(libc, take_listener(libc, runner, listener), *watcher)
            supervisor.start()
        go_on = b"1"
    except OSError as exc:
        sys.stderr.write(f"git-memory sandbox: {exc.strerror}\n")
        go_on = b"0"
    with contextlib.suppress(OSError):  # the runner may have failed before it could wait
        os.write(going, go_on)
    os.close(going)
    return runner, layers, supervisor


def _exit_status(status: int) -> int:
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status)
    return 128 + os.WTERMSIG(status)


def _wait_for(runner: int) -> int:
    """Reap every child (orphans are re-parented to pid 1) until the runner itself exits."""
    while True:
        pid, status = os.wait()
        if pid == runner:
            return _exit_status(status)


def _others() -> list[int]:
    me = os.getpid()
    return [int(name) for name in os.listdir("/proc") if name.isdigit() and int(name) != me]


def _reap_and_sweep() -> bool:
    """Kill everything still in the namespace; True when something was."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    found = _others()
    for pid in found:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return bool(found)


JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _json_text(text: str) -> str:
    def escaped(char: str) -> str:
        if char in JSON_ESCAPES:
            return JSON_ESCAPES[char]
        if char < " " or "\ud800" <= char <= "\udfff":  # a control, or a byte of a bad name
            return f"\\u{ord(char):04x}"
        return char

    return '"' + "".join(escaped(char) for char in text) + '"'


def to_json(value: object) -> str:
    """JSON of the report's plain values (dicts, lists, text, whole numbers, booleans, None)
    without importing `json`, and `re` with it, into every sandbox start."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{_json_text(str(k))}:{to_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(to_json(item) for item in value) + "]"
    if isinstance(value, str):
        return _json_text(value)
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    return str(int(value))  # type: ignore[call-overload]


def _held(path: str | None) -> str | None:
    if path is None:
        return None
    directory = os.open(os.path.dirname(path), os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    return f"/proc/self/fd/{directory}/{os.path.basename(path)}"


def _send(path: str, data: bytes) -> None:
    with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as connection:
        connection.connect(path)
        connection.sendall(data)


def _prepare(libc: ctypes.CDLL, options: Options) -> tuple[View, Watch, dict[str, str]]:
    """The view, the loopback listeners and the runner's environment."""
    view = View(libc, options.allowed, options.ids)
    try:
        view.build()
    except (SetupError, OSError) as exc:
        _fail(str(exc))
    cwd = options.single.get("--cwd") or "/"
    try:
        os.chdir(cwd)
    except OSError as exc:
        _fail(f"cannot enter {cwd}: {exc.strerror}")
    env = dict(os.environ)
    egress = options.single.get("--egress")
    if egress or options.watch:
        try:
            loopback_up()
        except OSError as exc:
            _fail(f"cannot bring loopback up: {exc.strerror}")
    watch = Watch(options.watch, egress)
    if egress:
        env.update(dict.fromkeys(PROXY_VARIABLES, f"http://127.0.0.1:{watch.proxy_port}"))
        env.pop("NO_PROXY", None)
        env.pop("no_proxy", None)
    return view, watch, env


def main(argv: list[str]) -> int:
    """Build the sandbox, run the runner in it, report; the runner's exit status."""
    options = Options(argv)
    if not options.command:
        _fail("no program to run")
    libc = _libc()
    # Not dumpable: the runner cannot open /proc/1/{root,cwd,fd,environ,mem}.
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    # The host's sockets are named through directory handles held from before the view is
    # built: /proc/self/fd/<n>/<name>.
    for flag in ("--egress", "--report"):
        if flag in options.single:
            options.single[flag] = _held(options.single[flag]) or ""
    view, watch, env = _prepare(libc, options)
    proxy = f"127.0.0.1:{watch.proxy_port}" if watch.forwarder is not None else None
    runner, inner, supervisor = _start_runner(
        libc, options, env, (Judge(view.roots, view.fresh), proxy)
    )
    watch.serve()
    status = _wait_for(runner)
    lingering = _reap_and_sweep()
    if supervisor is not None:
        supervisor.stop()
    report = options.single.get("--report")
    if report:
        with watch.lock:
            contained = {f"tcp:{port}": count for port, count in watch.counts.items()}
        attempts = supervisor.attempts if supervisor is not None else None
        said = {
            "layers": {**_outer_layers(view, env), **inner},
            "contained": contained,
            "kept": view.kept,
            "attempts": attempts.report() if attempts else [],
            "attemptsTotal": attempts.total if attempts else 0,
        }
        _send(report, to_json(said).encode())
    return LINGERING_EXIT if lingering else status


def run(argv: list[str]) -> None:
    """The entry point: exit with what `main` returns, without Python's shutdown."""
    sys.stdout.flush()
    os._exit(main(argv))
