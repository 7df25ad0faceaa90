"""The isolated environment of a model runner: allowlisted variables and a one-time home.

Every model runner (claude, codex, command) starts from an empty environment, gets only the
allowlisted host variables (proxy, CA, locale, TZ and the provider's one credential) and a
private temporary HOME/TMPDIR/XDG tree that is removed afterwards, so no host secret, shell
history or provider session store is reachable or written. A proxy URL reaches it without
its user and password, and not at all when the runner's model is not on the network.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from git_memory.errors import GitMemoryError
from git_memory.paths import PRIVATE_FILE_MODE, ensure_private_dir
from git_memory.runners.binary import BinaryIdentity
from git_memory.runners.egress import network_endpoint
from git_memory.runners.profiles import ResolvedProfile

ROOT_PREFIX = "git-memory-runner-"
SYSTEM_PATH = ("/usr/local/bin", "/usr/bin", "/bin")
PROXY_VARIABLES = frozenset(
    {"ALL_PROXY", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "all_proxy", "http_proxy"}
    | {"https_proxy", "no_proxy"}
)


@dataclass(frozen=True)
class Isolation:
    """One runner invocation's environment and directories."""

    root: Path
    workspace: Path
    env: dict[str, str]


def runner_path(binary: BinaryIdentity, host_env: Mapping[str, str]) -> str:
    """PATH for the runner: the binary's directory, node's (npm shims need it), system dirs."""
    directories = [str(binary.invoked.parent)]
    node = shutil.which("node", path=host_env.get("PATH", ""))
    if node:
        directories.append(str(Path(node).parent))
    directories += SYSTEM_PATH
    return os.pathsep.join(dict.fromkeys(directories))


def build_environment(
    profile: ResolvedProfile, binary: BinaryIdentity, host_env: Mapping[str, str], root: Path
) -> dict[str, str]:
    """The complete environment of the runner; nothing else from the host gets through."""
    env = {key: host_env[key] for key in profile.environment_allowlist if key in host_env}
    local = network_endpoint(profile) is None
    for key in PROXY_VARIABLES & env.keys():
        if local:
            del env[key]  # nothing of the network is the runner's to reach
        else:
            env[key] = without_credentials(env[key])
    env.update(
        PATH=runner_path(binary, host_env),
        HOME=str(root / "home"),
        TMPDIR=str(root / "tmp"),
        TMP=str(root / "tmp"),
        TEMP=str(root / "tmp"),
        XDG_CACHE_HOME=str(root / "cache"),
        XDG_CONFIG_HOME=str(root / "config"),
        XDG_DATA_HOME=str(root / "data"),
        XDG_STATE_HOME=str(root / "state"),
    )
    if profile.name == "codex":
        env["CODEX_HOME"] = str(root / "codex-home")
    if profile.name == "claude":
        env["CLAUDE_CONFIG_DIR"] = str(root / "claude-config")
    return env


def without_credentials(value: str) -> str:
    """A proxy URL without its user and password (`http://user:pw@proxy:3128` →
    `http://proxy:3128`); a list of hosts (`NO_PROXY`) has none and is kept as it is.
    Everything up to the last `@` goes: a password may hold an unescaped `/` or `@`."""
    scheme, separator, rest = value.partition("://")
    if not separator:
        scheme, rest = "", value
    return f"{scheme}{separator}{rest.rpartition('@')[2]}"


@contextlib.contextmanager
def isolated(
    profile: ResolvedProfile,
    binary: BinaryIdentity,
    *,
    host_env: Mapping[str, str] | None = None,
    temp_root: Path | None = None,
) -> Iterator[Isolation]:
    """Create the one-time tree, yield the environment, and always remove the tree."""
    env_source = os.environ if host_env is None else host_env
    root = Path(tempfile.mkdtemp(prefix=ROOT_PREFIX, dir=temp_root))
    try:
        for name in ("home", "tmp", "cache", "config", "data", "state", "workspace"):
            ensure_private_dir(root / name)
        if profile.name == "codex":
            _prepare_codex_home(root / "codex-home", env_source)
        if profile.name == "claude":
            ensure_private_dir(root / "claude-config")
        env = build_environment(profile, binary, env_source, root)
        yield Isolation(root=root, workspace=root / "workspace", env=env)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _prepare_codex_home(codex_home: Path, host_env: Mapping[str, str]) -> None:
    """A Codex home holding only a copy of the user's auth.json (no config, no history)."""
    ensure_private_dir(codex_home)
    source_home = host_env.get("CODEX_HOME") or str(Path(host_env.get("HOME", "~")) / ".codex")
    source = Path(source_home).expanduser() / "auth.json"
    try:
        data = source.read_bytes()
    except FileNotFoundError:
        return  # an API key in the environment may be enough
    except OSError as exc:
        raise GitMemoryError(
            "GM_RUNNER_AUTH_UNREADABLE",
            f"cannot read the Codex credentials file: {exc.strerror}",
        ) from exc
    fd = os.open(codex_home / "auth.json", os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def require_credential(profile: ResolvedProfile, host_env: Mapping[str, str] | None = None) -> None:
    """Refuse before anything is spawned when the runner could not authenticate anyway.

    Claude runs with `--bare`, which authenticates by `ANTHROPIC_API_KEY` only; Codex takes
    `OPENAI_API_KEY` or the user's `auth.json`; a command runner needs the credential
    variable it was configured with (if any).
    """
    env = os.environ if host_env is None else host_env
    needed = profile.credential_env
    if not needed or env.get(needed):
        return
    if profile.name == "codex":
        home = env.get("CODEX_HOME") or str(Path(env.get("HOME", "~")) / ".codex")
        if (Path(home).expanduser() / "auth.json").is_file():
            return
    raise GitMemoryError(
        "GM_RUNNER_CREDENTIAL_MISSING",
        f"the {profile.name} runner needs {needed} in the environment and it is not set",
        hint=f"export {needed}=… (only this variable reaches the runner), or use "
        "--runner builtin, which needs no model",
    )
