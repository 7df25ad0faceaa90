"""The first process inside a runner's OS sandbox: pid 1 of its own pid namespace.

`git_memory.runners.sandbox` starts this file as a script (standard library only, nothing of
git_memory imported: it runs inside fresh user, pid, mount and network namespaces made by
`unshare`, as root of that user namespace). It

1. builds the runner's file system view: every mount read-only; fresh empty `/tmp`, `/run`
   and `/dev/shm`; private paths (state home, agent histories, home dotfiles, the
   repository's `.git`, `~/.ssh`, …) under empty read-only mounts; the paths the runner needs
   (`--keep`, read-only) and may write (`--write`, its one-time tree) put back in place;
2. when the runner may reach its model endpoint, brings loopback up and forwards
   `127.0.0.1:<port>` to the host's egress socket, naming it as the runner's proxy; each
   `--watch PORT` is a loopback listener that counts connection attempts (contained: the
   host never sees them);
3. starts the runner unprivileged: in a nested user and mount namespace (so every mount
   made here is locked and cannot be undone), as a non-root user, with an empty capability
   bounding set, no-new-privs and a seccomp filter (`_seccomp_program`) where the
   architecture has a syscall table here;
4. reaps every orphan while the runner runs, and when it exits kills whatever is left in the
   namespace (a `setsid` escape cannot leave it) and reports that with exit status 249 (248:
   the sandbox could not be set up; 247: the program could not be started);
5. writes a JSON report (`--report FILE`, opened before anything is covered) naming each
   isolation layer that held and each contained attempt it counted.

Usage: sandbox_init.py [--hide P]... [--keep P]... [--write P]... [--watch PORT]...
       [--egress SOCKET] [--report SOCKET] [--cwd DIR] [--uid N] [--gid N] [--seccomp off]
       -- PROGRAM ARGS...
(`--seccomp off` leaves the filter out, so that each other layer can be shown to hold alone.)
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import fcntl
import json
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
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC = 1, 2, 4, 8, 4096, 16384
MS_REMOUNT, MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 32, 1024, 2048, 1 << 21
# statvfs flag → the mount flag to repeat on a remount (a locked one may not be dropped).
LOCKED_FLAGS = (
    (os.ST_NOSUID, MS_NOSUID),
    (os.ST_NODEV, MS_NODEV),
    (os.ST_NOEXEC, MS_NOEXEC),
    (os.ST_NOATIME, MS_NOATIME),
    (os.ST_NODIRATIME, MS_NODIRATIME),
    (os.ST_RELATIME, MS_RELATIME),
)
HARDENED = MS_NOSUID | MS_NODEV | MS_NOEXEC
AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY, MOUNT_SETATTR = -100, 0x8000, 1, 442
CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_SECCOMP, PR_SET_NO_NEW_PRIVS = 4, 24, 22, 38
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, SECCOMP_MODE_FILTER = 47, 4, 2
LINUX_CAPABILITY_VERSION_3 = 0x20080522
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
PROXY_VARIABLES = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY")
# Covered by fresh empty file systems: no host socket, lock or temporary file shows through.
FRESH = (("/tmp", "mode=1777"), ("/run", "mode=0755"), ("/dev/shm", "mode=1777"))
HELD, NOT_AVAILABLE = "held", "not available"


class _Filter(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_ushort),
        ("jt", ctypes.c_ubyte),
        ("jf", ctypes.c_ubyte),
        ("k", ctypes.c_uint),
    ]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Filter))]


class _MountAttr(ctypes.Structure):
    _fields_ = [
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    ]


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


# Syscalls a runner never needs and that could undo or get around the sandbox: mounts and
# namespaces, keys, BPF, tracing other processes, kernel modules, io_uring (its requests are
# not seen by seccomp). Per architecture: (audit arch, {name: number}).
SYSCALLS = {
    "x86_64": (
        0xC000003E,
        {
            "socket": 41, "clone": 56, "clone3": 435, "mount": 165, "umount2": 166,
            "pivot_root": 155, "chroot": 161, "unshare": 272, "setns": 308, "open_tree": 428,
            "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
            "mount_setattr": 442, "keyctl": 250, "add_key": 248, "request_key": 249,
            "bpf": 321, "perf_event_open": 298, "ptrace": 101, "process_vm_readv": 310,
            "process_vm_writev": 311, "open_by_handle_at": 304, "name_to_handle_at": 303,
            "init_module": 175, "finit_module": 313, "delete_module": 176, "kexec_load": 246,
            "kexec_file_load": 320, "io_uring_setup": 425, "io_uring_enter": 426,
            "io_uring_register": 427, "userfaultfd": 323, "syslog": 103, "acct": 163,
            "swapon": 167, "swapoff": 168, "reboot": 169, "quotactl": 179,
        },
    ),
    "aarch64": (
        0xC00000B7,
        {
            "socket": 198, "clone": 220, "clone3": 435, "mount": 40, "umount2": 39,
            "pivot_root": 41, "chroot": 51, "unshare": 97, "setns": 268, "open_tree": 428,
            "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
            "mount_setattr": 442, "keyctl": 219, "add_key": 217, "request_key": 218,
            "bpf": 280, "perf_event_open": 241, "ptrace": 117, "process_vm_readv": 270,
            "process_vm_writev": 271, "open_by_handle_at": 265, "name_to_handle_at": 264,
            "init_module": 105, "finit_module": 273, "delete_module": 106, "kexec_load": 104,
            "kexec_file_load": 294, "io_uring_setup": 425, "io_uring_enter": 426,
            "io_uring_register": 427, "userfaultfd": 282, "syslog": 116, "acct": 89,
            "swapon": 224, "swapoff": 225, "reboot": 142, "quotactl": 60,
        },
    ),
}  # fmt: skip
# Looked at separately: socket (AF_UNIX refused), clone (namespace flags refused), clone3
# (ENOSYS: its flags are behind a pointer; C libraries fall back to clone).
SPECIAL = ("socket", "clone", "clone3")
AF_UNIX = 1
NAMESPACE_FLAGS = 0x7E020000  # CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET
RET_KILL, RET_ALLOW, RET_ERRNO = 0x80000000, 0x7FFF0000, 0x00050000
LD_ABS, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06
EPERM, ENOSYS = 1, 38


def _fail(message: str) -> None:
    sys.stderr.write(f"git-memory sandbox: {message}\n")
    sys.stderr.flush()
    os._exit(SETUP_FAILED_EXIT)


class Options:
    """The parsed command line."""

    def __init__(self, argv: list[str]) -> None:
        self.lists: dict[str, list[str]] = {"--hide": [], "--keep": [], "--write": []}
        self.watch: list[int] = []
        self.single: dict[str, str] = {}
        position = 0
        while position < len(argv) and argv[position] != "--":
            if position + 1 >= len(argv):
                _fail(f"option {argv[position]} has no value")
            flag, value = argv[position], argv[position + 1]
            if flag in self.lists:
                self.lists[flag].append(value)
            elif flag == "--watch":
                self.watch.append(int(value))
            elif flag in ("--egress", "--report", "--cwd", "--uid", "--gid", "--seccomp"):
                self.single[flag] = value
            else:
                _fail(f"unknown option {flag}")
            position += 2
        self.command = argv[position + 1 :]
        for path in [p for values in self.lists.values() for p in values]:
            if not os.path.isabs(path):
                _fail(f"cannot hide {path!r}: not an absolute path")


def _libc() -> ctypes.CDLL:
    # glibc's name first: `find_library` runs `ldconfig` in a subprocess (slow start-up).
    try:
        return ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:
        return ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        _fail(f"{what}: {os.strerror(ctypes.get_errno())}")


def _mount(libc: ctypes.CDLL, source: str, target: str, kind: str | None, flags: int) -> None:
    data = None
    if kind == "tmpfs":
        data = b"size=64k,mode=0500"
    elif kind is not None and "=" in kind:  # "tmpfs:<options>" for the fresh directories
        kind, options = kind.split(":", 1)
        data = options.encode()
    result = libc.mount(
        source.encode(), target.encode(), kind.encode() if kind else None, flags, data
    )
    _check(result, f"cannot mount on {target}")


def _readonly(libc: ctypes.CDLL, path: str, readonly: bool, recursive: bool) -> None:
    attr = _MountAttr(MOUNT_ATTR_RDONLY if readonly else 0, 0 if readonly else MOUNT_ATTR_RDONLY)
    flags = AT_RECURSIVE if recursive else 0
    result = libc.syscall(
        MOUNT_SETATTR, AT_FDCWD, path.encode(), flags, ctypes.byref(attr), ctypes.sizeof(attr)
    )
    if result != 0 and ctypes.get_errno() == errno.ENOSYS:  # before Linux 5.12
        remount_each(libc, path, readonly, recursive)
        return
    _check(result, f"cannot make {path} {'read-only' if readonly else 'writable'}")


def _mount_points_below(path: str) -> list[str]:
    with open("/proc/self/mountinfo", encoding="utf-8") as info:
        points = [line.split()[4].replace("\\040", " ") for line in info]
    return sorted({p for p in points if p == path or _below(p, path) or path == "/"})


def remount_each(libc: ctypes.CDLL, path: str, readonly: bool, recursive: bool) -> None:
    """`_readonly` without `mount_setattr`: a bind remount of each mount, keeping the flags
    a mount from a more privileged namespace is locked with (nosuid, nodev, noexec, atime)."""
    for point in _mount_points_below(path) if recursive else [path]:
        try:
            found = os.statvfs(point).f_flag
        except OSError:
            continue  # below a covered path: out of sight already
        flags = MS_BIND | MS_REMOUNT | (MS_RDONLY if readonly else 0)
        for kept, flag in LOCKED_FLAGS:
            flags |= flag if found & kept else 0
        _check(libc.mount(None, point.encode(), None, flags, None), f"cannot remount {point}")


def _same(fd: int, path: str) -> bool:
    try:
        seen = os.stat(path)
    except OSError:
        return False
    held = os.fstat(fd)
    return (seen.st_dev, seen.st_ino) == (held.st_dev, held.st_ino)


def _below(path: str, directory: str) -> bool:
    return path.startswith(directory.rstrip("/") + "/")


def _make_point(path: str, directory: bool) -> None:
    if os.path.lexists(path):
        return
    parent = os.path.dirname(path)
    os.makedirs(parent, mode=0o755, exist_ok=True)
    if directory:
        os.mkdir(path, 0o755)
    else:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))


class View:
    """The runner's file system view, built in this (outer) mount namespace."""

    def __init__(self, libc: ctypes.CDLL, options: Options) -> None:
        self.libc = libc
        self.options = options
        self.covers: list[str] = []
        self.kept: list[str] = []  # read-only paths put back below a covered one

    def build(self) -> None:
        # Held open before anything is covered, to be put back afterwards.
        wanted = [(p, False) for p in self.options.lists["--keep"]]
        wanted += [(p, True) for p in self.options.lists["--write"]]
        held: list[tuple[str, bool, int]] = []
        for path, writable in sorted(wanted, key=lambda item: item[0].count("/")):
            with contextlib.suppress(OSError):
                held.append((path, writable, os.open(path, os.O_PATH | os.O_CLOEXEC)))
        _readonly(self.libc, "/", readonly=True, recursive=True)
        _readonly(self.libc, "/proc", readonly=False, recursive=False)  # uid_map, own files
        for path, options in FRESH:
            if os.path.isdir(path) and not os.path.islink(path):
                _mount(self.libc, "tmpfs", path, f"tmpfs:{options}", MS_NOSUID | MS_NODEV)
        # Outermost first: a private path inside one already covered needs no mount of its own.
        for path in sorted(self.options.lists["--hide"], key=lambda item: item.count("/")):
            if not any(_below(path, cover) for cover in self.covers):
                self._hide(path)
        restored = [self._restore(path, writable, fd) for path, writable, fd in held]
        self.kept = [
            path
            for (path, writable, _fd), back in zip(held, restored, strict=True)
            if back and not writable
        ]
        for path in self.options.lists["--hide"]:
            if any(_below(path, back) for back in restored if back):
                self._hide(path)  # a private path below a path put back stays hidden
        for path in self.covers:
            _readonly(self.libc, path, readonly=True, recursive=False)

    def _hide(self, path: str) -> None:
        try:
            info = os.stat(path)
        except OSError:
            return  # nothing there to hide
        if stat.S_ISDIR(info.st_mode):
            _mount(self.libc, "tmpfs", path, "tmpfs", HARDENED)
            self.covers.append(path)
        else:  # an empty read-only file: reads find nothing, writes fail
            _mount(self.libc, self._empty_file(), path, None, MS_BIND)
            _readonly(self.libc, path, readonly=True, recursive=False)

    def _empty_file(self) -> str:
        for directory in ("/run", "/tmp"):  # fresh file systems of our own by now
            empty = os.path.join(directory, ".git-memory-hidden")
            with contextlib.suppress(OSError):
                os.close(os.open(empty, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o400))
                return empty
        return "/dev/null"

    def _restore(self, path: str, writable: bool, fd: int) -> str:
        try:
            if _same(fd, path) and not writable:
                return ""
            if not _same(fd, path):
                _make_point(path, stat.S_ISDIR(os.fstat(fd).st_mode))
            _mount(self.libc, f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)
            _readonly(self.libc, path, readonly=not writable, recursive=False)
            return path
        except OSError as exc:
            _fail(f"cannot put {path} back in place: {exc.strerror}")
            return ""
        finally:
            os.close(fd)


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


def _listen(port: int) -> socket.socket:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(16)
    return listener


class Watch:
    """Loopback listeners on the ports of the host's canaries: each connection the runner
    makes to one is an attempt to connect out, counted here and contained (the namespace
    has no route to the host). With `egress`, also the proxy forwarder's listener.

    The sockets listen from the start; their threads start only after the runner is forked
    (`serve`), so that the fork happens in a single-threaded process."""

    def __init__(self, ports: list[int], egress: str | None) -> None:
        self.counts = dict.fromkeys(ports, 0)
        self.lock = threading.Lock()
        self.listeners = [(_listen(port), port) for port in ports]
        self.egress = egress
        self.forwarder = _listen(0) if egress else None
        self.proxy_port: int = self.forwarder.getsockname()[1] if self.forwarder else 0

    def serve(self) -> None:
        """Start accepting (after the fork)."""
        for listener, port in self.listeners:
            threading.Thread(target=self._count, args=(listener, port), daemon=True).start()
        if self.forwarder is not None and self.egress:
            threading.Thread(target=_serve, args=(self.forwarder, self.egress), daemon=True).start()

    def _count(self, listener: socket.socket, port: int) -> None:
        while True:
            try:
                client, _address = listener.accept()
            except OSError:
                return
            with self.lock:
                self.counts[port] += 1
            client.close()


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


def _seccomp_program() -> tuple[list[tuple[int, int, int, int]], str]:
    """The filter's instructions, or [] and why there is none for this machine."""
    machine = os.uname().machine
    if machine not in SYSCALLS:
        return [], f"{NOT_AVAILABLE} (no syscall table for {machine})"
    arch, numbers = SYSCALLS[machine]
    denied = [number for name, number in numbers.items() if name not in SPECIAL]
    # (code, jump-if-true label, jump-if-false label, k); labels resolved below.
    code: list[tuple[int, str | int, str | int, int]] = [
        (LD_ABS, 0, 0, 4),
        (JEQ, 1, 0, arch),
        (RET, 0, 0, RET_KILL),
        (LD_ABS, 0, 0, 0),
        (JGE, "kill", 0, 0x40000000),  # the x32 ABI on x86_64
        *[(JEQ, "eperm", 0, number) for number in denied],
        (JEQ, "enosys", 0, numbers["clone3"]),
        (JEQ, "socket", 0, numbers["socket"]),
        (JEQ, "clone", "allow", numbers["clone"]),
    ]
    labels: dict[str, list[tuple[int, str | int, str | int, int]]] = {
        "socket": [(LD_ABS, 0, 0, 16), (JEQ, "eperm", "allow", AF_UNIX)],
        "clone": [(LD_ABS, 0, 0, 16), (JSET, "eperm", "allow", NAMESPACE_FLAGS)],
        "allow": [(RET, 0, 0, RET_ALLOW)],
        "eperm": [(RET, 0, 0, RET_ERRNO | EPERM)],
        "enosys": [(RET, 0, 0, RET_ERRNO | ENOSYS)],
        "kill": [(RET, 0, 0, RET_KILL)],
    }
    where: dict[str, int] = {}
    for label, body in labels.items():
        where[label] = len(code)
        code += body
    resolved = []
    for index, (op, jt, jf, k) in enumerate(code):
        true = where[jt] - index - 1 if isinstance(jt, str) else jt
        false = where[jf] - index - 1 if isinstance(jf, str) else jf
        resolved.append((op, true, false, k))
    return resolved, HELD


def _install_seccomp(libc: ctypes.CDLL) -> str:
    program, state = _seccomp_program()
    if not program:
        return state
    table = (_Filter * len(program))(*[_Filter(*row) for row in program])
    fprog = _Program(len(program), ctypes.cast(table, ctypes.POINTER(_Filter)))
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        return f"{NOT_AVAILABLE} ({os.strerror(ctypes.get_errno())})"
    return HELD


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="ascii") as handle:
        handle.write(text)


def _unprivileged(libc: ctypes.CDLL, uid: int, gid: int, seccomp_on: bool) -> dict[str, str]:
    """In the runner's process before exec: nested namespaces, no capabilities, no new
    privileges, seccomp. Returns the layers as this process sees them."""
    _check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS), "cannot create the nested namespace")
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} 0 1\n")
    _write("/proc/self/gid_map", f"{gid} 0 1\n")
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "cannot set no-new-privs")
    with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as handle:
        last = int(handle.read())
    for capability in range(last + 1):
        _check(libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0), "cannot drop a capability")
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = _CapHeader(LINUX_CAPABILITY_VERSION_3, 0)
    empty = (_CapData * 2)()
    _check(libc.capset(ctypes.byref(header), empty), "cannot clear the capabilities")
    seccomp = _install_seccomp(libc) if seccomp_on else f"{NOT_AVAILABLE} (--seccomp off)"
    status = _proc_status()
    caps = all(int(status.get(key, "1"), 16) == 0 for key in ("CapEff", "CapPrm", "CapBnd"))
    return {
        "caps dropped": HELD if caps else NOT_AVAILABLE,
        "no-new-privs": HELD if status.get("NoNewPrivs") == "1" else NOT_AVAILABLE,
        "seccomp": seccomp if status.get("Seccomp") == "2" or seccomp != HELD else "failed",
        "nested user ns": HELD,
    }


def _proc_status() -> dict[str, str]:
    with open("/proc/self/status", encoding="ascii", errors="replace") as handle:
        pairs = [line.split(":", 1) for line in handle if ":" in line]
    return {key: value.strip() for key, value in pairs}


def _outer_layers(view_built: bool) -> dict[str, str]:
    with open("/proc/self/uid_map", encoding="ascii") as handle:
        mapped = handle.read().split()
    interfaces = [name for _index, name in socket.if_nameindex()]
    return {
        "user ns": HELD if mapped[:3] != ["0", "0", "4294967295"] else NOT_AVAILABLE,
        "pid ns": HELD if os.getpid() == 1 else NOT_AVAILABLE,
        "mount ns": HELD if view_built else NOT_AVAILABLE,
        "net ns": HELD if interfaces == ["lo"] else NOT_AVAILABLE,
    }


def _start_runner(
    libc: ctypes.CDLL, options: Options, env: dict[str, str]
) -> tuple[int, dict[str, str]]:
    uid = int(options.single.get("--uid", "65534"))
    gid = int(options.single.get("--gid", "65534"))
    reading, writing = os.pipe()
    runner = os.fork()
    if runner == 0:
        os.close(reading)
        try:
            layers = _unprivileged(libc, uid, gid, options.single.get("--seccomp") != "off")
        except OSError as exc:
            sys.stderr.write(f"git-memory sandbox: cannot drop privileges: {exc.strerror}\n")
            os._exit(SETUP_FAILED_EXIT)
        os.write(writing, json.dumps(layers).encode())
        os.close(writing)
        try:
            os.execvpe(options.command[0], options.command, env)
        except OSError as exc:
            sys.stderr.write(
                f"git-memory sandbox: cannot run {options.command[0]}: {exc.strerror}\n"
            )
        os._exit(EXEC_FAILED_EXIT)
    os.close(writing)
    with os.fdopen(reading, "rb") as pipe:
        said = pipe.read()
    try:
        layers = json.loads(said) if said else {}
    except ValueError:
        layers = {}
    return runner, layers


def _held(path: str | None) -> str | None:
    if path is None:
        return None
    directory = os.open(os.path.dirname(path), os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    return f"/proc/self/fd/{directory}/{os.path.basename(path)}"


def _send(path: str, data: bytes) -> None:
    with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as connection:
        connection.connect(path)
        connection.sendall(data)


def main(argv: list[str]) -> int:
    options = Options(argv)
    if not options.command:
        _fail("no program to run")
    libc = _libc()
    # Not dumpable: the runner cannot open /proc/1/{root,cwd,fd,environ,mem}.
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    cwd = options.single.get("--cwd") or os.getcwd()
    # The host's sockets are named through directory handles held from before /tmp is
    # covered: /proc/self/fd/<n>/<name>.
    egress, report = (_held(options.single.get(flag)) for flag in ("--egress", "--report"))
    view = View(libc, options)
    view.build()
    try:
        os.chdir(cwd)  # resolved again: the old working directory may now be covered
    except OSError as exc:
        _fail(f"cannot enter {cwd}: {exc.strerror}")
    env = dict(os.environ)
    if egress or options.watch:
        try:
            _loopback_up()
        except OSError as exc:
            _fail(f"cannot bring loopback up: {exc.strerror}")
    watch = Watch(options.watch, egress)
    if egress:
        proxy = f"http://127.0.0.1:{watch.proxy_port}"
        env.update(dict.fromkeys(PROXY_VARIABLES, proxy))
        env.pop("NO_PROXY", None)
        env.pop("no_proxy", None)
    runner, inner = _start_runner(libc, options, env)
    watch.serve()
    status = _wait_for(runner)
    lingering = _reap_and_sweep()
    if report is not None:
        layers = {**_outer_layers(True), "read-only root": HELD, **inner}
        with watch.lock:
            contained = {f"tcp:{port}": count for port, count in watch.counts.items()}
        said = {"layers": layers, "contained": contained, "kept": view.kept}
        _send(report, json.dumps(said).encode())
    return LINGERING_EXIT if lingering else status


if __name__ == "__main__":
    sys.stdout.flush()
    os._exit(main(sys.argv[1:]))
