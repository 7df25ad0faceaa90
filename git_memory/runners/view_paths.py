"""What a model runner's root is built from: the allow-list, one row per kind of path.

The OS sandbox (`sandbox.py`, `sandbox_view.py`) shows a runner these paths, at their own
places, and nothing else of the host's tree: the system's programs and libraries, the
certificate store, name resolution, the model CLI's own install (its npm package or its
directory, the interpreter its first line names, its PATH), the CLI's system-wide settings,
and its one-time directory (the only place it may write). The sandbox adds an /etc/passwd
naming only root, the runner and nobody, and a fresh /etc/machine-id (never the host's). A
home directory, a second mount of it, a sibling repository, the state home or a root-owned
key is not on the list, so it is not in the view at all.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

# (path, what it is: an example of who reads it). Rows that do not exist here are skipped.
SYSTEM = (
    ("/usr", "programs and libraries (/usr/bin/node, /usr/lib/x86_64-linux-gnu/libc.so.6)"),
    ("/bin", "programs (a link to usr/bin on merged-/usr systems)"),
    ("/sbin", "programs (a link to usr/sbin on merged-/usr systems)"),
    ("/lib", "libraries (a link to usr/lib on merged-/usr systems)"),
    ("/lib64", "the dynamic loader (/lib64/ld-linux-x86-64.so.2)"),
    ("/lib32", "32-bit libraries"),
    ("/libx32", "x32 libraries"),
    ("/etc/ld.so.cache", "the dynamic loader's index of libraries"),
    ("/etc/ld.so.conf", "the dynamic loader's library directories"),
    ("/etc/ld.so.conf.d", "the dynamic loader's library directories"),
    ("/etc/ld.so.preload", "libraries this host loads into every program"),
    ("/etc/alternatives", "Debian's alternatives (/usr/bin/python3 may point here)"),
    ("/etc/localtime", "the time zone (Claude Code reads where it points)"),
    ("/etc/timezone", "the time zone's name"),
    ("/etc/locale.alias", "glibc's locale names"),
    ("/etc/os-release", "the system's name and version (Claude Code and Codex read it)"),
    ("/.dockerenv", "the Docker container marker (Claude Code looks for it)"),
    ("/run/.containerenv", "the Podman container marker"),
)
CERTIFICATES = (
    ("/etc/ssl/certs", "Debian's CA bundle (/etc/ssl/certs/ca-certificates.crt)"),
    ("/etc/ssl/openssl.cnf", "OpenSSL's configuration (codex reads it at start)"),
    ("/etc/ca-certificates", "Debian's CA store"),
    ("/etc/pki/tls/certs", "Fedora's CA bundle (/etc/pki/tls/certs/ca-bundle.crt)"),
    ("/etc/pki/tls/cert.pem", "Fedora's CA bundle"),
    ("/etc/pki/tls/openssl.cnf", "Fedora's OpenSSL configuration"),
    ("/etc/pki/ca-trust", "Fedora's CA store"),
)
NAME_RESOLUTION = (
    ("/etc/hosts", "localhost and this host's fixed names"),
    ("/etc/resolv.conf", "the name servers"),
    ("/etc/nsswitch.conf", "how glibc looks names up"),
    ("/etc/host.conf", "glibc's resolver options"),
    ("/etc/gai.conf", "getaddrinfo's address order"),
)
# Allow-listed variables that name a certificate file or directory of the user's.
CERTIFICATE_VARIABLES = ("SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS")
# A model CLI's system-wide settings, read at every start: part of its install.
PROFILE_PATHS = {
    "claude": (("/etc/claude-code", "managed settings (/etc/claude-code/managed-settings.json)"),),
    "codex": (("/etc/codex", "system settings (/etc/codex/config.toml)"),),
}
# What a model CLI looks for at every start and is not given: the look is not an attempt.
PROFILE_LOOKUPS = {
    "claude": (("/etc/gitconfig", "git's system settings (they may carry credentials)"),),
}


def looked_for(profile_name: str) -> list[str]:
    """The paths the profile's CLI reads at start that its view leaves out on purpose."""
    return _rows(PROFILE_LOOKUPS.get(profile_name, ()))


def _rows(rows: Iterable[tuple[str, str]]) -> list[str]:
    return [path for path, _why in rows]


def install_root(program: Path) -> Path:
    """The model CLI's own install: its npm package (`…/node_modules/@scope/name`), or
    the directory its program is in."""
    for directory in program.parents:
        above = directory.parent
        if above.name == "node_modules" or (
            above.name.startswith("@") and above.parent.name == "node_modules"
        ):
            return directory
    return program.parent


def _interpreter(program: Path, path_value: str) -> str | None:
    """The program its first line names (`#!/usr/bin/env node` → node on `path_value`)."""
    try:
        with open(program, "rb") as handle:
            first = handle.readline(512)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", "replace").split()
    if not words:
        return None
    if os.path.basename(words[0]) == "env" and len(words) > 1:
        return shutil.which(words[1], path=path_value)
    return words[0]


def interpreter_paths(interpreter: str) -> list[str]:
    """What an interpreter needs: a Python its prefix (a virtual environment's and the
    installation it was made from), anything else its own directory."""
    real = os.path.realpath(interpreter)
    if not os.path.basename(real).startswith("python"):
        return [os.path.dirname(real)]
    found = [os.path.dirname(os.path.dirname(interpreter)), os.path.dirname(os.path.dirname(real))]
    if real == os.path.realpath(sys.executable):
        found += [sys.prefix, sys.base_prefix]
    return found


def program_paths(argv: Sequence[str], path_value: str) -> list[str]:
    """The program's install, its interpreter's, and the directories on its PATH."""
    found = [directory for directory in path_value.split(os.pathsep) if os.path.isabs(directory)]
    if not argv or not os.path.isabs(argv[0]):
        return found
    program = Path(os.path.realpath(argv[0]))
    found.append(str(install_root(program)))
    interpreter = argv[0] if program.name.startswith("python") else None
    interpreter = interpreter or _interpreter(program, path_value)
    if interpreter and os.path.isabs(interpreter):
        found += interpreter_paths(interpreter)
    return found


def allowed_paths(
    argv: Sequence[str],
    runner_env: Mapping[str, str],
    profile_name: str,
    *,
    read: Sequence[str] = (),
    write: Sequence[str] = (),
) -> dict[str, bool]:
    """Every path of the runner's view → whether it may write there."""
    readable = _rows(SYSTEM) + _rows(CERTIFICATES) + _rows(NAME_RESOLUTION)
    readable += _rows(PROFILE_PATHS.get(profile_name, ()))
    readable += [runner_env[name] for name in CERTIFICATE_VARIABLES if name in runner_env]
    readable += program_paths(argv, runner_env.get("PATH", "")) + list(read)
    allowed = {
        os.path.normpath(path): False
        for path in readable
        if os.path.isabs(path) and os.path.lexists(path)
    }
    for path in write:
        if os.path.isabs(path) and os.path.lexists(path):
            allowed[os.path.normpath(path)] = True
    return allowed
