"""The system calls the runner sandbox refuses or watches, per architecture (data only).

Standard library only: the sandbox init (`sandbox_init.py`) imports it before the runner's
view is built. `NUMBERS` maps each architecture to its seccomp audit value and the numbers of
the calls named here; `DENIED` lists the calls a runner never needs and that could undo or
get around the sandbox; `WATCHED` says, for each call the attempt watch looks at, what it
tries and where its path or address is among the arguments.
"""

from __future__ import annotations

NUMBERS: dict[str, tuple[int, dict[str, int]]] = {
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
            "swapon": 167, "swapoff": 168, "reboot": 169, "quotactl": 179, "seccomp": 317,
            "pidfd_getfd": 438,
            "open": 2, "openat": 257, "openat2": 437, "creat": 85, "execve": 59,
            "execveat": 322, "truncate": 76, "mkdir": 83, "mkdirat": 258,
            "unlink": 87, "unlinkat": 263, "rmdir": 84, "rename": 82, "renameat": 264,
            "renameat2": 316, "link": 86, "linkat": 265, "symlink": 88, "symlinkat": 266,
            "chmod": 90, "fchmodat": 268, "fchmodat2": 452, "chown": 92, "lchown": 94,
            "fchownat": 260, "mknod": 133, "mknodat": 259, "utimensat": 280, "connect": 42,
            "sendto": 44, "sendmsg": 46, "sendmmsg": 307,
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
            "swapon": 224, "swapoff": 225, "reboot": 142, "quotactl": 60, "seccomp": 277,
            "pidfd_getfd": 438,
            "openat": 56, "openat2": 437, "execve": 221, "execveat": 281, "truncate": 45,
            "mkdirat": 34, "unlinkat": 35, "renameat": 38, "renameat2": 276, "linkat": 37,
            "symlinkat": 36, "fchmodat": 53, "fchmodat2": 452, "fchownat": 54, "mknodat": 33,
            "utimensat": 88, "connect": 203, "sendto": 206, "sendmsg": 211,
            "sendmmsg": 269,
        },
    ),
}  # fmt: skip

# Never needed by a runner: mounts and namespaces, keys, BPF, tracing other processes,
# kernel modules, io_uring (its requests are not seen by seccomp), swap, reboot.
DENIED = (
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "open_tree",
    "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr", "keyctl",
    "add_key", "request_key", "bpf", "perf_event_open", "ptrace", "process_vm_readv",
    "process_vm_writev", "open_by_handle_at", "name_to_handle_at", "init_module",
    "finit_module", "delete_module", "kexec_load", "kexec_file_load", "io_uring_setup",
    "io_uring_enter", "io_uring_register", "userfaultfd", "syslog", "acct", "swapon",
    "swapoff", "reboot", "quotactl",
)  # fmt: skip

EXEC, WRITE, OPEN, OPEN2, CONNECT, SENDMSG, SENDMMSG, UNIX = (
    "exec", "write", "open", "open2", "connect", "sendmsg", "sendmmsg", "unix",
)  # fmt: skip
# Where a path is: (index of its directory handle argument or None, index of the path).
AT0, AT1, AT2 = ((None, 0),), ((0, 1),), ((1, 2),)
# name → (what it tries, where its paths are, the index of its flags or address argument).
# An `open` reads unless its flags ask to write; `open2` keeps its flags in a struct; an
# `exec` reads the program. What
# reads or changes a file is watched; a look at its metadata (stat, access, readlink) is not:
# it reads nothing, and it is most of what a program does at start.
WATCHED: dict[str, tuple[str, tuple[tuple[int | None, int], ...], int]] = {
    "open": (OPEN, AT0, 1),
    "openat": (OPEN, AT1, 2),
    "openat2": (OPEN2, AT1, 2),
    "creat": (WRITE, AT0, -1),
    "execve": (EXEC, AT0, -1),  # reads the program; the thread gets a new memory
    "execveat": (EXEC, AT1, -1),
    "truncate": (WRITE, AT0, -1),
    "mkdir": (WRITE, AT0, -1),
    "mkdirat": (WRITE, AT1, -1),
    "unlink": (WRITE, AT0, -1),
    "unlinkat": (WRITE, AT1, -1),
    "rmdir": (WRITE, AT0, -1),
    "rename": (WRITE, ((None, 0), (None, 1)), -1),
    "renameat": (WRITE, ((0, 1), (2, 3)), -1),
    "renameat2": (WRITE, ((0, 1), (2, 3)), -1),
    "link": (WRITE, ((None, 0), (None, 1)), -1),
    "linkat": (WRITE, ((0, 1), (2, 3)), -1),
    "symlink": (WRITE, ((None, 1),), -1),
    "symlinkat": (WRITE, AT2, -1),
    "chmod": (WRITE, AT0, -1),
    "fchmodat": (WRITE, AT1, -1),
    "fchmodat2": (WRITE, AT1, -1),
    "chown": (WRITE, AT0, -1),
    "lchown": (WRITE, AT0, -1),
    "fchownat": (WRITE, AT1, -1),
    "mknod": (WRITE, AT0, -1),
    "mknodat": (WRITE, AT1, -1),
    "utimensat": (WRITE, AT1, -1),
    "connect": (CONNECT, (), 1),
    "sendto": (CONNECT, (), 4),
    "sendmsg": (SENDMSG, (), 1),
    "sendmmsg": (SENDMMSG, (), 1),
    "socket": (UNIX, (), 0),
}
