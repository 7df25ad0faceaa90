"""The first process inside a runner's OS sandbox: pid 1 of its own pid namespace.

`git_memory.runners.sandbox` starts this file as a script (standard library only, nothing of
git_memory imported: it runs inside fresh user, pid, mount and network namespaces made by
`unshare`). It

1. hides private paths (the state home, `~/.ssh`, …) under empty read-only mounts;
2. when the runner may reach its model endpoint, brings loopback up and forwards
   `127.0.0.1:<port>` to the host's egress socket, naming it as the runner's proxy;
3. starts the runner, reaps every orphan while it runs, and when the runner exits kills
   whatever is left in the namespace (a `setsid` escape cannot leave it) and reports that
   with exit status 249 (248: the sandbox could not be set up; 247: the program could not
   be started).

Usage: sandbox_init.py [--hide PATH]... [--egress SOCKET] -- PROGRAM ARGS...
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import fcntl
import os
import signal
import socket
import stat
import struct
import sys
import threading

LINGERING_EXIT = 249
SETUP_FAILED_EXIT = 248
EXEC_FAILED_EXIT = 247
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REMOUNT = 1, 2, 4, 8, 4096, 32
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
PROXY_VARIABLES = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY")


def _fail(message: str) -> None:
    sys.stderr.write(f"git-memory sandbox: {message}\n")
    sys.stderr.flush()
    os._exit(SETUP_FAILED_EXIT)


def _parse(argv: list[str]) -> tuple[list[str], str | None, list[str]]:
    hides: list[str] = []
    egress: str | None = None
    position = 0
    while position < len(argv) and argv[position] != "--":
        flag, value = argv[position], argv[position + 1]
        if flag == "--hide":
            hides.append(value)
        elif flag == "--egress":
            egress = value
        else:
            _fail(f"unknown option {flag}")
        position += 2
    return hides, egress, argv[position + 1 :]


def _mount(libc: ctypes.CDLL, source: str, target: str, kind: str | None, flags: int) -> None:
    options = b"size=16k,mode=0500" if kind == "tmpfs" else None
    result = libc.mount(
        source.encode(), target.encode(), kind.encode() if kind else None, flags, options
    )
    if result != 0:
        error = ctypes.get_errno()
        _fail(f"cannot hide {target}: {os.strerror(error)}")


def _hide(libc: ctypes.CDLL, path: str) -> None:
    if not os.path.isabs(path):
        _fail(f"cannot hide {path!r}: not an absolute path")
    try:
        info = os.stat(path)
    except OSError:
        return  # nothing there to hide
    hardened = MS_NOSUID | MS_NODEV | MS_NOEXEC
    if stat.S_ISDIR(info.st_mode):
        _mount(libc, "tmpfs", path, "tmpfs", hardened | MS_RDONLY)
    else:
        _mount(libc, "/dev/null", path, None, MS_BIND)
        _mount(libc, "/dev/null", path, None, MS_BIND | MS_REMOUNT | MS_RDONLY | hardened)


def _loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        request = struct.pack("16sh", b"lo", 0)
        flags = struct.unpack("16sh", fcntl.ioctl(probe, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(probe, SIOCSIFFLAGS, struct.pack("16sh", b"lo", flags | IFF_UP))


def _pump(source: socket.socket, sink: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while chunk := source.recv(65536):
            sink.sendall(chunk)
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)


def _forward(client: socket.socket, egress: str) -> None:
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        upstream.connect(egress)
    except OSError:
        client.close()
        upstream.close()
        return
    back = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
    back.start()
    _pump(client, upstream)
    back.join()
    client.close()
    upstream.close()


def _serve(listener: socket.socket, egress: str) -> None:
    while True:
        try:
            client, _address = listener.accept()
        except OSError:
            return
        threading.Thread(target=_forward, args=(client, egress), daemon=True).start()


def _start_forwarder(egress: str) -> int:
    try:
        _loopback_up()
    except OSError as exc:
        _fail(f"cannot bring loopback up: {exc.strerror}")
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    threading.Thread(target=_serve, args=(listener, egress), daemon=True).start()
    port: int = listener.getsockname()[1]
    return port


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


def main(argv: list[str]) -> int:
    hides, egress, command = _parse(argv)
    if not command:
        _fail("no program to run")
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    for path in hides:
        _hide(libc, path)
    env = dict(os.environ)
    if egress:
        proxy = f"http://127.0.0.1:{_start_forwarder(egress)}"
        env.update(dict.fromkeys(PROXY_VARIABLES, proxy))
        env.pop("NO_PROXY", None)
        env.pop("no_proxy", None)
    runner = os.fork()
    if runner == 0:
        try:
            os.execvpe(command[0], command, env)
        except OSError as exc:
            sys.stderr.write(f"git-memory sandbox: cannot run {command[0]}: {exc.strerror}\n")
        os._exit(EXEC_FAILED_EXIT)
    status = _wait_for(runner)
    return LINGERING_EXIT if _reap_and_sweep() else status


if __name__ == "__main__":
    sys.stdout.flush()
    os._exit(main(sys.argv[1:]))
