"""The runner's root, built from an allow-list (standard library only: run in the sandbox init).

A fresh read-only tmpfs becomes the root; into it go, at their own paths, the paths the
host side allows (`--ro`, read-only: the system's programs and libraries, the certificate
store, name resolution, the model CLI's own install; `--rw`: the runner's one-time
directory), fresh empty `/tmp` and `/run`, a `/dev` of five devices (no terminal, no
`/dev/pts`), the sandbox's own `/proc`, an `/etc/passwd` naming only root, the runner and
nobody, and an `/etc/machine-id` of its own. Then `pivot_root` leaves the host's tree
behind: no other mount of the host — a second mount of the home, a sibling repository, a
root-owned key — is in the runner's view at all, nor in its `/proc/self/mountinfo`.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import stat

from git_memory.runners.sandbox_calls import NUMBERS

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC = 1, 2, 4, 8, 4096, 16384
MS_REMOUNT, MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 32, 1024, 2048, 1 << 21
MNT_DETACH = 2
# statvfs flag → the mount flag to repeat on a remount (a locked one may not be dropped).
LOCKED_FLAGS = (
    (os.ST_NOSUID, MS_NOSUID),
    (os.ST_NODEV, MS_NODEV),
    (os.ST_NOEXEC, MS_NOEXEC),
    (os.ST_NOATIME, MS_NOATIME),
    (os.ST_NODIRATIME, MS_NODIRATIME),
    (os.ST_RELATIME, MS_RELATIME),
)
AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY, MOUNT_SETATTR = -100, 0x8000, 1, 442
# Fresh empty file systems of the runner's own: no socket, lock or file of the host's.
FRESH = (("/tmp", "mode=1777,size=50%"), ("/run", "mode=0755,size=1m"))
DEVICES = ("null", "zero", "full", "random", "urandom")
DEVICE_LINKS = (
    ("fd", "/proc/self/fd"),
    ("stdin", "/proc/self/fd/0"),
    ("stdout", "/proc/self/fd/1"),
    ("stderr", "/proc/self/fd/2"),
)
# Where the new root is assembled before `pivot_root` (our mount namespace only).
STAGING = ("/tmp", "/mnt", "/run", "/var/tmp")


class SetupError(Exception):
    """The view could not be built (the init reports it and exits 248)."""


class _MountAttr(ctypes.Structure):
    _fields_ = [
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    ]


def _check(result: int, what: str) -> None:
    if result != 0:
        raise SetupError(f"{what}: {os.strerror(ctypes.get_errno())}")


def mount(libc: ctypes.CDLL, source: str, target: str, kind: str | None, flags: int) -> None:
    """mount(2); `kind` "tmpfs:<options>" mounts a tmpfs with those options."""
    data = None
    if kind is not None and ":" in kind:
        kind, options = kind.split(":", 1)
        data = options.encode()
    result = libc.mount(
        source.encode(), target.encode(), kind.encode() if kind else None, flags, data
    )
    _check(result, f"cannot mount on {target}")


def readonly(libc: ctypes.CDLL, path: str, on: bool, recursive: bool) -> None:
    """Make the mount at `path` (and those below it, with `recursive`) read-only or not."""
    attr = _MountAttr(MOUNT_ATTR_RDONLY if on else 0, 0 if on else MOUNT_ATTR_RDONLY)
    flags = AT_RECURSIVE if recursive else 0
    result = libc.syscall(
        MOUNT_SETATTR, AT_FDCWD, path.encode(), flags, ctypes.byref(attr), ctypes.sizeof(attr)
    )
    if result != 0 and ctypes.get_errno() == errno.ENOSYS:  # before Linux 5.12
        remount_each(libc, path, on, recursive)
        return
    _check(result, f"cannot make {path} {'read-only' if on else 'writable'}")


def _mount_points_below(path: str) -> list[str]:
    with open("/proc/self/mountinfo", encoding="utf-8") as info:
        points = [line.split()[4].replace("\\040", " ") for line in info]
    return sorted({p for p in points if p == path or _below(p, path) or path == "/"})


def remount_each(libc: ctypes.CDLL, path: str, on: bool, recursive: bool) -> None:
    """`readonly` without `mount_setattr`: a bind remount of each mount, keeping the flags
    a mount from a more privileged namespace is locked with (nosuid, nodev, noexec, atime)."""
    for point in _mount_points_below(path) if recursive else [path]:
        try:
            found = os.statvfs(point).f_flag
        except OSError:
            continue  # below a covered path: out of sight already
        flags = MS_BIND | MS_REMOUNT | (MS_RDONLY if on else 0)
        for kept, flag in LOCKED_FLAGS:
            flags |= flag if found & kept else 0
        _check(libc.mount(None, point.encode(), None, flags, None), f"cannot remount {point}")


def _below(path: str, directory: str) -> bool:
    return path.startswith(directory.rstrip("/") + "/")


def _point(target: str, directory: bool) -> None:
    os.makedirs(target if directory else os.path.dirname(target), exist_ok=True)
    if not directory and not os.path.lexists(target):
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o644))


class View:
    """The runner's root: the allow-listed paths (path → writable) and nothing else.

    `roots` after `build()`: every mount and link of the view with whether the runner may
    write there (what the attempt watch judges by); `kept`: the read-only host paths;
    `mounts`: where the view mounted something (their own submounts aside)."""

    def __init__(self, libc: ctypes.CDLL, allowed: dict[str, bool], ids: tuple[int, int]) -> None:
        self.libc = libc
        self.allowed = allowed
        self.ids = ids
        self.roots: list[tuple[str, bool]] = []
        self.kept: list[str] = []
        self.mounts = ["/", "/proc", "/dev"]
        self.fresh = frozenset([*(path for path, _options in FRESH), "/dev/shm"])

    def build(self) -> None:
        """Assemble the root and pivot into it (the init's working directory becomes /)."""
        os.umask(0o022)
        sources = self._open_sources()
        staging = next((p for p in STAGING if os.path.isdir(p) and not os.path.islink(p)), "")
        if not staging:
            raise SetupError("no directory to assemble the runner's root in")
        mount(self.libc, "tmpfs", staging, "tmpfs:mode=0755,size=1m", MS_NOSUID | MS_NODEV)
        for path, options in FRESH:
            os.makedirs(staging + path, exist_ok=True)
            mount(self.libc, "tmpfs", staging + path, f"tmpfs:{options}", MS_NOSUID | MS_NODEV)
            self.roots.append((path, True))
            self.mounts.append(path)
        self._dev(staging)
        os.makedirs(staging + "/proc")
        mount(self.libc, "/proc", staging + "/proc", None, MS_BIND | MS_REC)
        for path, writable, handle, link in sources:
            self._place(staging, path, writable, handle, link)
        self._accounts(staging)
        readonly(self.libc, staging, on=True, recursive=False)
        readonly(self.libc, staging + "/dev", on=True, recursive=False)
        os.chdir(staging)
        pivot = NUMBERS.get(os.uname().machine, (0, {}))[1].get("pivot_root", 155)
        _check(self.libc.syscall(pivot, b".", b"."), "cannot pivot into the runner's root")
        _check(self.libc.umount2(b".", MNT_DETACH), "cannot leave the host's tree")
        os.chdir("/")

    def _open_sources(self) -> list[tuple[str, bool, int, str | None]]:
        """Each allowed path not already shown by an allowed directory above it, held open
        (or as the link it is, when it points into another allowed path), outermost first."""
        found: list[tuple[str, bool, int, str | None]] = []
        for path in sorted(self.allowed, key=lambda item: (item.count("/"), item)):
            writable = self.allowed[path]
            above = [p for p in self.allowed if _below(path, p) and os.path.isdir(p)]
            if above and self.allowed[max(above, key=len)] == writable:
                self.roots.append((path, writable))
                continue
            with contextlib.suppress(OSError):
                if os.path.islink(path) and self._inside_another(path):
                    found.append((path, False, -1, os.readlink(path)))
                else:
                    handle = os.open(path, os.O_PATH | os.O_CLOEXEC)
                    found.append((path, writable, handle, None))
        return found

    def _inside_another(self, path: str) -> bool:
        real = os.path.realpath(path)
        return any(real == p or _below(real, p) for p in self.allowed if p != path)

    def _place(
        self, staging: str, path: str, writable: bool, handle: int, link: str | None
    ) -> None:
        target = staging + path
        self.roots.append((path, writable))
        if link is not None:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.symlink(link, target)
            return
        try:
            _point(target, stat.S_ISDIR(os.fstat(handle).st_mode))
            mount(self.libc, f"/proc/self/fd/{handle}", target, None, MS_BIND | MS_REC)
            self.mounts.append(path)
            readonly(self.libc, target, on=not writable, recursive=True)
        finally:
            os.close(handle)
        if not writable:
            self.kept.append(path)

    def _dev(self, staging: str) -> None:
        """Five devices, the links to /proc/self/fd and a fresh /dev/shm: no terminal."""
        dev = staging + "/dev"
        os.makedirs(dev)
        mount(self.libc, "tmpfs", dev, "tmpfs:mode=0755,size=64k", MS_NOSUID)
        for name in [name for name in DEVICES if os.path.exists(f"/dev/{name}")]:
            _point(f"{dev}/{name}", directory=False)
            mount(self.libc, f"/dev/{name}", f"{dev}/{name}", None, MS_BIND)
            self.roots.append((f"/dev/{name}", True))
            self.mounts.append(f"/dev/{name}")
        for name, target in DEVICE_LINKS:
            os.symlink(target, f"{dev}/{name}")
            self.roots.append((f"/dev/{name}", True))
        os.mkdir(f"{dev}/shm")
        mount(self.libc, "tmpfs", f"{dev}/shm", "tmpfs:mode=1777,size=50%", MS_NOSUID | MS_NODEV)
        self.roots.append(("/dev/shm", True))
        self.mounts.append("/dev/shm")

    def _accounts(self, staging: str) -> None:
        """An /etc/passwd and /etc/group naming root, the runner and nobody only, and a
        machine id of this run's own."""
        uid, gid = self.ids
        home = os.environ.get("HOME", "/nonexistent")
        users = {0: "root:x:0:0:root:/root:/usr/sbin/nologin"}
        users.setdefault(uid, f"runner:x:{uid}:{gid}:runner:{home}:/usr/sbin/nologin")
        users.setdefault(65534, "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin")
        groups = {0: "root:x:0:"}
        groups.setdefault(gid, f"runner:x:{gid}:")
        groups.setdefault(65534, "nogroup:x:65534:")
        os.makedirs(staging + "/etc", exist_ok=True)
        texts = {
            "passwd": "".join(line + "\n" for line in users.values()),
            "group": "".join(line + "\n" for line in groups.values()),
            "machine-id": os.urandom(16).hex() + "\n",  # a program's device id: not the host's
        }
        for name, text in texts.items():
            with open(f"{staging}/etc/{name}", "w", encoding="utf-8") as handle:
                handle.write(text)
            self.roots.append((f"/etc/{name}", False))
