"""The attempt watch: every call the seccomp filter hands over, judged against the view.

Standard library only (it runs in the sandbox init). The runner's file-system calls and
network calls (`sandbox_calls.WATCHED`) reach `Supervisor` through the seccomp listener; it
reads the path or address from the runner's memory, notes each one the runner's view does
not give it — a path outside the allow-listed root, a write outside its writable
directories, a terminal, an address other than its egress proxy, a unix socket — with the
layer that stops it, and lets the kernel carry the call out (a unix socket is refused here,
as the filter without the watch refuses it). The watch only observes: the view, the network
namespace and the filter are what contain the runner.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import select
import socket
import struct
import threading

from git_memory.runners.sandbox_calls import (
    CONNECT,
    EXEC,
    NUMBERS,
    OPEN,
    OPEN2,
    SENDMMSG,
    SENDMSG,
    UNIX,
    WATCHED,
    WRITE,
)

RECV, SEND, ID_VALID = 0xC0502100, 0xC0182101, 0x40082102
USER_NOTIF_FLAG_CONTINUE = 1
AT_FDCWD = 0xFFFFFF9C
WRITE_FLAGS = 0o1 | 0o2 | 0o100 | 0o1000  # O_WRONLY | O_RDWR | O_CREAT | O_TRUNC
AF_UNIX, AF_INET, AF_INET6 = 1, 2, 10
PATH_MAX = 4096
MAX_ATTEMPTS = 200
# The kernel's own files, which runtimes probe at start (the CPU count in /sys, Bun's
# /sys/kernel/debug/tracing/trace_marker opened for writing by the claude binary): not the
# host's files, and what a runner without capabilities can change there is nothing.
KERNEL_FILES = ("/proc", "/sys")
TERMINALS = ("/dev/tty", "/dev/pts", "/dev/console", "/dev/ptmx", "/dev/vcs")
LAYER_VIEW, LAYER_READ_ONLY, LAYER_TERMINAL = "allow-list root", "read-only view", "no terminal"
LAYER_NET, LAYER_SECCOMP = "net ns", "seccomp"


class _Data(ctypes.Structure):
    _fields_ = [
        ("nr", ctypes.c_int),
        ("arch", ctypes.c_uint32),
        ("ip", ctypes.c_uint64),
        ("args", ctypes.c_uint64 * 6),
    ]


class _Notification(ctypes.Structure):
    _fields_ = [
        ("id", ctypes.c_uint64),
        ("pid", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),
        ("data", _Data),
    ]


class _Response(ctypes.Structure):
    _fields_ = [
        ("id", ctypes.c_uint64),
        ("val", ctypes.c_int64),
        ("error", ctypes.c_int32),
        ("flags", ctypes.c_uint32),
    ]


def _below(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def _resolved(path: str, write: bool) -> str:
    """`path` with its symlinks resolved; a write acts on the last name itself (a link the
    runner makes, renames or removes), so only its directory is resolved."""
    if not write:
        return os.path.realpath(path)
    return os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))


class Judge:
    """Which layer stops an access, or None when the view gives it to the runner.

    `roots` are the view's mounts (path, writable), `fresh` those that are empty file
    systems of its own over a host directory; every directory above one is part of the
    read-only skeleton of the view."""

    def __init__(self, roots: list[tuple[str, bool]], fresh: frozenset[str] = frozenset()) -> None:
        self.roots = sorted(roots, key=lambda root: -len(root[0]))
        self.fresh = fresh
        self.skeleton = {"/"}
        for root, _writable in roots:
            above = root
            while above not in ("/", ""):
                above = os.path.dirname(above)
                self.skeleton.add(above)

    def layer(self, path: str, write: bool, follow: bool = True) -> str | None:
        """The layer that stops `path` (absolute, normalized) from being read or written."""
        if any(_below(path, kernel) for kernel in KERNEL_FILES):
            return None
        if any(_below(path, terminal) for terminal in TERMINALS):
            return LAYER_TERMINAL
        for root, writable in self.roots:
            if not _below(path, root):
                continue
            if not writable:
                return LAYER_READ_ONLY if write else None
            if follow:  # the runner may have put a symlink here
                real = _resolved(path, write)
                if real != path:
                    return self.layer(real, write, follow=False)
            # In a fresh directory of its own (/tmp hides the host's /tmp), below a directory
            # that is not there: a path of the host's that the view does not give.
            if root in self.fresh and not os.path.isdir(os.path.dirname(path)):
                return LAYER_VIEW
            return None
        if path in self.skeleton or (write and os.path.dirname(path) in self.skeleton):
            return LAYER_READ_ONLY if write else None
        return LAYER_VIEW


class Attempts:
    """What the runner tried that its view does not give it: (what, target) → layer."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], str] = {}
        self.total = 0
        self.lock = threading.Lock()

    def add(self, what: str, target: str, layer: str) -> None:
        with self.lock:
            self.total += 1
            if len(self.seen) < MAX_ATTEMPTS:
                self.seen.setdefault((what, target[:PATH_MAX]), layer)

    def report(self) -> list[dict[str, str]]:
        """`[{"what", "target", "layer"}, …]` in the order they were first seen."""
        with self.lock:
            items = list(self.seen.items())
        return [{"what": w, "target": t, "layer": layer} for (w, t), layer in items]


class _Memory:
    """Reads of one runner thread's memory and file-system position (/proc/<tid>); its
    `mem` stays open while the thread lives (a gone thread's reads fail: it is reopened)."""

    def __init__(self, tid: int) -> None:
        self.tid = tid
        self.fd = os.open(f"/proc/{tid}/mem", os.O_RDONLY | os.O_CLOEXEC)

    def close(self) -> None:
        os.close(self.fd)

    def read(self, address: int, size: int) -> bytes:
        data = os.pread(self.fd, size, address)
        if not data:  # the memory this was opened on is gone (the thread ran a program)
            raise OSError(errno.EIO, "stale memory")
        return data

    def string(self, address: int) -> str:
        data = b""
        while len(data) < PATH_MAX:
            chunk = self.read(address + len(data), 4096 - (address + len(data)) % 4096)
            end = chunk.find(b"\0")
            if end >= 0:
                return (data + chunk[:end]).decode("utf-8", "surrogateescape")
            if not chunk:
                break
            data += chunk
        return data.decode("utf-8", "surrogateescape")

    def absolute(self, directory: int | None, path: str) -> str:
        if not path.startswith("/"):
            where = "cwd" if directory in (None, AT_FDCWD) else f"fd/{directory}"
            path = os.readlink(f"/proc/{self.tid}/{where}") + "/" + path
        return os.path.normpath(path).replace("//", "/")


def _address(data: bytes) -> tuple[int, str]:
    """(family, "host:port") of a socket address; "" for families we do not judge."""
    if len(data) < 2:
        return 0, ""
    family = struct.unpack_from("=H", data)[0]
    if family == AF_INET and len(data) >= 8:
        host = socket.inet_ntop(socket.AF_INET, data[4:8])
        return family, f"{host}:{struct.unpack_from('!H', data, 2)[0]}"
    if family == AF_INET6 and len(data) >= 24:
        host = socket.inet_ntop(socket.AF_INET6, data[8:24])
        return family, f"[{host}]:{struct.unpack_from('!H', data, 2)[0]}"
    return family, ""


class Supervisor:
    """Answers the seccomp listener's notifications on a thread of its own."""

    def __init__(self, libc: ctypes.CDLL, listener: int, judge: Judge, proxy: str | None) -> None:
        self.libc = libc
        self.listener = listener
        self.judge = judge
        self.proxy = proxy
        self.attempts = Attempts()
        self.names = {number: name for name, number in NUMBERS[os.uname().machine][1].items()}
        self.memories: dict[int, _Memory] = {}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def start(self) -> None:
        """Begin answering (the runner waits on its first watched call until then)."""
        self.thread.start()

    def stop(self) -> None:
        """Stop once every filtered process is gone."""
        self.done.set()
        self.thread.join(timeout=2)

    def _serve(self) -> None:
        poller = select.poll()
        poller.register(self.listener, select.POLLIN)
        while True:
            events = poller.poll(100)
            if not events:
                if self.done.is_set():
                    break
                continue
            if not events[0][1] & select.POLLIN:
                break  # every process under the filter has exited
            self._answer_one()
        for tid in list(self.memories):
            self._forget(tid)

    def _answer_one(self) -> None:
        notification = _Notification()
        if self.libc.ioctl(self.listener, RECV, ctypes.byref(notification)) != 0:
            return  # the caller died meanwhile, or a signal interrupted us
        error = 0
        with contextlib.suppress(OSError, ValueError):
            error = self._judge(notification)
        response = _Response(notification.id, 0, -error, 0 if error else USER_NOTIF_FLAG_CONTINUE)
        self.libc.ioctl(self.listener, SEND, ctypes.byref(response))

    def _judge(self, notification: _Notification) -> int:
        """Note what the call tries; the errno to answer (0: let the kernel decide)."""
        name = self.names.get(notification.data.nr, "")
        what = WATCHED.get(name, ("", (), -1))[0]
        args = notification.data.args
        if what == UNIX:
            self.attempts.add("open a unix socket", "", LAYER_SECCOMP)
            return errno.EPERM
        try:
            targets = self._targets(self._memory(notification.pid), name, args)
        except OSError:  # a program since started by that thread, or another with its id
            self._forget(notification.pid)
            targets = self._targets(self._memory(notification.pid), name, args)
        if what == EXEC:
            self._forget(notification.pid)  # an exec gives the thread a new memory
        valid = ctypes.c_uint64(notification.id)
        if self.libc.ioctl(self.listener, ID_VALID, ctypes.byref(valid)) != 0:
            return 0  # the thread is gone: what we read may be another's memory
        for kind, target, layer in targets:
            self.attempts.add(kind, target, layer)
        return 0

    def _targets(
        self, memory: _Memory, name: str, args: ctypes.Array[ctypes.c_uint64]
    ) -> list[tuple[str, str, str]]:
        what, paths, extra = WATCHED[name]
        if what in (CONNECT, SENDMSG, SENDMMSG):
            return self._addresses(memory, what, args, extra)
        return self._paths(memory, what, paths, args, extra)

    def _memory(self, tid: int) -> _Memory:
        if tid not in self.memories:
            self.memories[tid] = _Memory(tid)
        return self.memories[tid]

    def _forget(self, tid: int) -> None:
        memory = self.memories.pop(tid, None)
        if memory is not None:
            memory.close()

    def _paths(
        self,
        memory: _Memory,
        what: str,
        paths: tuple[tuple[int | None, int], ...],
        args: ctypes.Array[ctypes.c_uint64],
        extra: int,
    ) -> list[tuple[str, str, str]]:
        write = what == WRITE
        if what == OPEN:
            write = bool(args[extra] & WRITE_FLAGS)
        elif what == OPEN2:
            write = bool(struct.unpack("=Q", memory.read(args[extra], 8))[0] & WRITE_FLAGS)
        found = []
        for directory, index in paths:
            if not args[index]:
                continue  # utimensat on an open file
            handle = None if directory is None else args[directory] & 0xFFFFFFFF
            text = memory.string(args[index])
            if not text:
                continue
            path = memory.absolute(handle, text)
            layer = self.judge.layer(path, write)
            if layer is not None:
                found.append(("write" if write else "read", path, layer))
        return found

    def _addresses(
        self, memory: _Memory, what: str, args: ctypes.Array[ctypes.c_uint64], extra: int
    ) -> list[tuple[str, str, str]]:
        if what == CONNECT:
            pointers = [(args[extra], args[extra + 1])]
        else:
            count = 1 if what == SENDMSG else min(int(args[2]), 8)
            size = 56 if what == SENDMSG else 64  # struct msghdr, struct mmsghdr
            heads = memory.read(args[extra], size * count)
            pointers = [
                struct.unpack_from("=QI", heads, offset) for offset in range(0, len(heads), size)
            ]
        found = []
        for pointer, length in pointers:
            if not pointer or not length:
                continue
            family, target = _address(memory.read(pointer, min(int(length), 128)))
            if family in (AF_INET, AF_INET6) and target != self.proxy:
                found.append(("connect", target, LAYER_NET))
        return found
