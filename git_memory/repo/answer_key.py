"""What a cached `git memory context` answer depends on, read without pygit2, pydantic or click.

A session-start hook runs `context` every time, so its answer is kept (assemble/answers.py)
under a key of everything the answer is made from, as these commands see it: the version, the
`GIT_MEMORY_*` environment, the repository's location, every configuration value git resolves
(`git config --list`), HEAD and the ref it names, whether history is shallow, and the stat
signature of every file below the memory root (uncommitted edits included). The paths the
freshness check looked at are compared separately (`path_signatures`), because which ones
they are is known only from the answer's own record.

Asking git for the configuration costs a process start on every session start, so what git
answered is kept beside the answers as a configuration snapshot, with the stat signatures of
every file git reads configuration from (system, global, repository, worktree, each whether
it exists or not, taken before git was asked). While all of them are unchanged the snapshot
stands for git's answer. A configuration git assembles from places whose changes those
signatures cannot see (`include.path`, `includeIf`, values from the command line or
environment) is never snapshotted: git is asked each time. Git's built-in system file is
looked for where git installs it (docs/performance.md).

A file changed within `RACY_NS` of the answer being recorded may change again without its
stat signature changing (a coarse clock); such files are also compared by content, as git
treats a racily clean index entry.
"""

from __future__ import annotations

import json
import os
import stat
import zlib

import git_memory
from git_memory.paths import state_home_text, write_private_atomic
from git_memory.repo.git_files import discover_git_dir, read_small_text
from git_memory.repo.memory_root import resolve_memory_root

# A repository chosen by the environment rather than by the directory is left to the full path.
REFUSED_ENVIRONMENT = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_NAMESPACE",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
)
KEPT_GIT_VARIABLES = ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM")
RACY_NS = 3_000_000_000

Signature = list[object] | None


CONFIG_SNAPSHOT_FORMAT = "git-memory-config-snapshot@1"
TRUE_WORDS = ("1", "true", "yes", "on")


class WorktreeKey:
    """The worktree, its memory root and settings, and the facts an answer is made from
    (`facts`, compared whole: JSON values, as a record reads them back); `config_snapshot`
    is what to keep of git's configuration answer (None: nothing)."""

    # A plain class: `dataclasses` costs the session-start path more than the class itself.
    __slots__ = ("config_snapshot", "facts", "files", "home_setting", "memory_root", "root")

    def __init__(
        self,
        root: str,
        memory_root: str,
        home_setting: str | None,
        facts: dict[str, object],
        files: dict[str, Signature],
        *,
        config_snapshot: dict[str, object] | None = None,
    ) -> None:
        self.root = root
        self.memory_root = memory_root
        self.home_setting = home_setting
        self.facts = facts
        self.files = files  # memory-root-relative file -> stat signature
        self.config_snapshot = config_snapshot


def path_signature(path: str) -> Signature:
    """Kind and stat signature of `path`, not following a symlink; None when absent."""
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISDIR(info.st_mode):
        return ["dir"]
    if stat.S_ISLNK(info.st_mode):
        # A manifest is read through a link: what it points at counts too.
        try:
            target = os.stat(path)
        except OSError:
            return ["link", os.readlink(path), None]
        return ["link", os.readlink(path), *_stat_fields(target)]
    return ["file", *_stat_fields(info)]


def _stat_fields(info: os.stat_result) -> list[object]:
    return [info.st_mode, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]


def path_signatures(root: str, relpaths: list[str]) -> dict[str, Signature]:
    """`path_signature` of each worktree-relative path."""
    return {relpath: path_signature(os.path.join(root, relpath)) for relpath in relpaths}


def is_racy(signature: Signature, recorded_ns: int) -> bool:
    """Whether a file changed so shortly before `recorded_ns` that its content must be compared."""
    if not signature or signature[0] != "file":
        return False
    changed = [value for value in signature[3:5] if isinstance(value, int)]  # mtime, ctime
    return max(changed, default=recorded_ns) >= recorded_ns - RACY_NS


def content_digest(path: str) -> str | None:
    """sha256 of a file's bytes (not following a symlink); None when it cannot be read."""
    # Start-up seam (docs/architecture.md): only a file changed just before its answer was
    # recorded is hashed; `hashlib` loads OpenSSL.
    import hashlib  # noqa: PLC0415

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def short_name(text: str) -> str:
    """A file name part for `text` (a worktree's path): its CRC-32. Two worktrees sharing one
    only make each other's records miss: every record names what it was made for."""
    return f"{zlib.crc32(text.encode('utf-8', 'surrogateescape')):08x}"


def worktree_key(cwd: str, settings: tuple[object, ...]) -> WorktreeKey | None:
    """The key of the worktree containing `cwd` for an answer with `settings`; None when the
    environment picks the repository or git does not answer (the full path decides)."""
    if any(name in os.environ for name in REFUSED_ENVIRONMENT):
        return None
    found = discover_git_dir(os.path.realpath(cwd))
    if found is None:
        return None
    root, git_dir, common_dir = found
    config = _configuration(root, git_dir, common_dir)
    if config is None:
        return None
    listing_digest, memory_root_setting, home_setting, snapshot = config
    memory_root = resolve_memory_root(root, memory_root_setting)
    files = _tree_signatures(os.path.join(root, memory_root))
    # JSON values only (lists, not tuples): a record's copy, read back, compares equal.
    facts: dict[str, object] = {
        "version": git_memory.__version__,
        "settings": list(settings),
        "environment": sorted(
            [name, value]
            for name, value in os.environ.items()
            if name.startswith("GIT_MEMORY_") or name in KEPT_GIT_VARIABLES
        ),
        "root": root,
        "gitDir": git_dir,
        "config": listing_digest,
        "head": _head(git_dir, common_dir),
        "shallow": path_signature(os.path.join(common_dir, "shallow")),
        "memoryRoot": memory_root,
        "files": files,
    }
    return WorktreeKey(root, memory_root, home_setting, facts, files, config_snapshot=snapshot)


# (digest of git's listing, memory.root, memory.home, snapshot to keep or None)
Configuration = tuple[str, str | None, str | None, dict[str, object] | None]


def _configuration(root: str, git_dir: str, common_dir: str) -> Configuration | None:
    """What git resolves as configuration: from the snapshot while every file it was made
    from is unchanged, else from git (None when git does not answer)."""
    candidates = _config_candidates(git_dir, common_dir)
    before = None if candidates is None else path_signatures("", candidates)
    snapshot_path = config_snapshot_path(root)
    if before is not None and snapshot_path is not None:
        kept = load_json(snapshot_path)
        if _snapshot_stands(kept, root, before):
            assert isinstance(kept, dict)
            return kept["listing"], kept["memoryRoot"], kept["home"], None
    listing = _git(["config", "--list", "--show-scope", "--show-origin", "-z"], root)
    if listing is None:
        return None
    config, files, keepable = _parse_listing(listing, root)
    # Start-up seam (docs/architecture.md): git was asked, a process start costs more.
    import hashlib  # noqa: PLC0415

    digest = hashlib.sha256(listing).hexdigest()
    memory_root_setting = config.get("memory.root") or None
    home_setting = config.get("memory.home") or None
    snapshot: dict[str, object] | None = None
    if before is not None and keepable and (home_setting is None or _home_from_environment()):
        signatures = {**before, **path_signatures("", sorted(set(files) - set(before)))}
        snapshot = {
            "format": CONFIG_SNAPSHOT_FORMAT,
            "root": root,
            "files": signatures,
            "listing": digest,
            "memoryRoot": memory_root_setting,
            "home": home_setting,
        }
    return digest, memory_root_setting, home_setting, snapshot


def _snapshot_stands(kept: object, root: str, before: dict[str, Signature]) -> bool:
    """Whether a kept snapshot still stands for git's answer: made for this worktree from
    the same candidate files (a changed HOME or GIT_CONFIG_GLOBAL names others), none of
    which, nor any file a value came from, changed since."""
    if not isinstance(kept, dict) or kept.get("format") != CONFIG_SNAPSHOT_FORMAT:
        return False
    files = kept.get("files")
    if kept.get("root") != root or not isinstance(files, dict):
        return False
    if any(path not in files or files[path] != signature for path, signature in before.items()):
        return False
    return bool(path_signatures("", sorted(files)) == files)


def write_config_snapshot(key: WorktreeKey, now_ns: int) -> None:
    """Keep the configuration snapshot `key` carries, unless a file it signs changed too
    recently for its signature to show the next change (see `is_racy`)."""
    snapshot = key.config_snapshot
    path = config_snapshot_path(key.root)
    if snapshot is None or path is None:
        return
    files = snapshot["files"]
    assert isinstance(files, dict)
    if any(is_racy(signature, now_ns) for signature in files.values()):
        return
    # Start-up seam (docs/architecture.md): the recorded answers never import pathlib when
    # they answer; only keeping a snapshot writes a file.
    from pathlib import Path  # noqa: PLC0415

    write_private_atomic(Path(path), json.dumps(snapshot).encode("utf-8"))


def _home_from_environment() -> bool:
    return bool(os.environ.get("GIT_MEMORY_HOME"))


def config_snapshot_path(root: str) -> str | None:
    """Where the configuration snapshot of worktree `root` is kept: in the state home as the
    environment names it (a `memory.home` only git knows is left to git); None when the
    state home cannot be named."""
    try:
        home = state_home_text(None)
    except Exception:
        return None
    return os.path.join(home, "artifacts", "context-answers", f"config-{short_name(root)}.json")


def _config_candidates(git_dir: str, common_dir: str) -> list[str] | None:
    """Every file git reads configuration from here, as git would find it; None when one
    of them cannot be named without git (the snapshot is then never used)."""
    env = os.environ
    files: list[str] = []
    if env.get("GIT_CONFIG_NOSYSTEM", "").lower() not in TRUE_WORDS:
        system = env.get("GIT_CONFIG_SYSTEM")
        if system:
            files.append(system)
        else:
            git = git_on_path()
            if git is None:
                return None
            files += system_config_candidates(git)
    if "GIT_CONFIG_GLOBAL" in env:
        if env["GIT_CONFIG_GLOBAL"]:
            files.append(env["GIT_CONFIG_GLOBAL"])
    else:
        home = env.get("HOME")
        if not home:
            return None
        xdg = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
        files += [os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig")]
    if not all(os.path.isabs(path) for path in files):
        return None  # relative to whichever directory git runs in
    files += [os.path.join(common_dir, "config"), os.path.join(git_dir, "config.worktree")]
    return [os.path.normpath(path) for path in files]


def git_on_path() -> str | None:
    """The `git` a child process started by name runs (the first executable on PATH); None
    when PATH names a relative directory (then it depends on the directory it runs in)."""
    for directory in os.environ.get("PATH", os.defpath).split(os.pathsep):
        if not os.path.isabs(directory):
            return None
        candidate = os.path.join(directory, "git")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def system_config_candidates(git: str) -> list[str]:
    """Where git's built-in system configuration file is: `/etc/gitconfig` for a git
    installed under `/usr`, else `etc/gitconfig` under its installation prefix (the
    directory above its `bin`, for the path it was found at and the one it resolves to)."""
    found = ["/etc/gitconfig"]
    for executable in (git, os.path.realpath(git)):
        prefix = os.path.dirname(os.path.dirname(executable))
        found.append(os.path.join(prefix, "etc", "gitconfig"))
    return list(dict.fromkeys(found))


def _parse_listing(listing: bytes, root: str) -> tuple[dict[str, str], list[str], bool]:
    """`git config --list --show-scope --show-origin -z` as key -> value (the last value of
    a key winning, as git's), the files it came from, and whether a snapshot may stand for
    it (every value from a plain file, no includes)."""
    config: dict[str, str] = {}
    files: list[str] = []
    keepable = True
    fields = listing.decode("utf-8", "surrogateescape").split("\0")
    for index in range(0, len(fields) - 2, 3):
        origin, record = fields[index + 1], fields[index + 2]
        key, _, value = record.partition("\n")
        if not key:
            continue
        config[key] = value
        if not origin.startswith("file:") or key.startswith(("include.", "includeif.")):
            keepable = False
        else:
            files.append(os.path.abspath(os.path.join(root, origin[len("file:") :])))
    return config, files, keepable


def load_json(path: str) -> object:
    """The JSON value of a file (not following a symlink); None when unreadable or not JSON."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        try:
            return json.loads(handle.read())
        except ValueError:
            return None


def _git(args: list[str], cwd: str) -> bytes | None:
    # Start-up seam (docs/architecture.md): a configuration snapshot that stands spares the
    # process and its module.
    from git_memory import _proc  # noqa: PLC0415

    # The configuration files the full command sees: `GIT_CONFIG_GLOBAL` and its kin stay
    # (their values are part of the key through `environment`).
    env = _proc.scrubbed_environment(keep_git=KEPT_GIT_VARIABLES)
    try:
        result = _proc.run(["git", *args], cwd=cwd, env=env)
    except OSError:
        return None
    return result.stdout if result.returncode == 0 else None


def _head(git_dir: str, common_dir: str) -> list[object]:
    """HEAD, the loose ref it names and the packed refs: what a commit or checkout changes."""
    head = read_small_text(os.path.join(git_dir, "HEAD"))
    facts: list[object] = [head]
    if head is not None and head.startswith("ref: "):
        name = head[5:].strip()
        facts.append(read_small_text(os.path.join(common_dir, name)))
    facts.append(path_signature(os.path.join(common_dir, "packed-refs")))
    return facts


def _tree_signatures(memory_dir: str) -> dict[str, Signature]:
    """Every file below the memory root (symlinks not followed), by relative path."""
    found: dict[str, Signature] = {}
    pending = [""]
    while pending:
        relative = pending.pop()
        try:
            entries = list(os.scandir(os.path.join(memory_dir, relative)))
        except (FileNotFoundError, NotADirectoryError):
            continue
        for entry in entries:
            relpath = f"{relative}/{entry.name}" if relative else entry.name
            if entry.is_dir(follow_symlinks=False):
                pending.append(relpath)
            else:
                found[relpath] = path_signature(entry.path)
    return found
