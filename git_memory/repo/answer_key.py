"""What a cached `git memory context` answer depends on, read without pygit2, pydantic or click.

A session-start hook runs `context` every time, so its answer is kept (assemble/answers.py)
under a key of everything the answer is made from, as these commands see it: the version, the
`GIT_MEMORY_*` environment, the repository's location, every configuration value git resolves
(`git config --list`), HEAD and the ref it names, whether history is shallow, and the stat
signature of every file below the memory root (uncommitted edits included). The paths the
freshness check looked at are compared separately (`path_signatures`), because which ones
they are is known only from the answer's own record.

A file changed within `RACY_NS` of the answer being recorded may change again without its
stat signature changing (a coarse clock); such files are also compared by content, as git
treats a racily clean index entry.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass

import git_memory
from git_memory import _proc
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


@dataclass(frozen=True)
class WorktreeKey:
    """The worktree, its memory root and settings, and the digest of what an answer reads."""

    root: str
    memory_root: str
    home_setting: str | None
    digest: str
    files: dict[str, Signature]  # memory-root-relative file -> stat signature


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
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def worktree_key(cwd: str, settings: tuple[object, ...]) -> WorktreeKey | None:
    """The key of the worktree containing `cwd` for an answer with `settings`; None when the
    environment picks the repository or git does not answer (the full path decides)."""
    if any(name in os.environ for name in REFUSED_ENVIRONMENT):
        return None
    found = discover_git_dir(os.path.realpath(cwd))
    if found is None:
        return None
    root, git_dir, common_dir = found
    listing = _git(["config", "--list", "-z"], root)
    if listing is None:
        return None
    config = _last_values(listing)
    memory_root = resolve_memory_root(root, config.get("memory.root") or None)
    files = _tree_signatures(os.path.join(root, memory_root))
    facts = {
        "version": git_memory.__version__,
        "settings": list(settings),
        "environment": sorted(
            (name, value)
            for name, value in os.environ.items()
            if name.startswith("GIT_MEMORY_") or name in KEPT_GIT_VARIABLES
        ),
        "root": root,
        "gitDir": git_dir,
        "config": hashlib.sha256(listing).hexdigest(),
        "head": _head(git_dir, common_dir),
        "shallow": path_signature(os.path.join(common_dir, "shallow")),
        "memoryRoot": memory_root,
        "files": files,
    }
    text = json.dumps(facts, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
    return WorktreeKey(root, memory_root, config.get("memory.home") or None, digest, files)


def discover_git_dir(start: str) -> tuple[str, str, str] | None:
    """(worktree root, git dir, common git dir) of the worktree containing `start`, found as
    git finds them (a `.git` directory, or a `.git` file naming one), without starting git:
    one stat per level. The key only has to find the record the full command made; any
    disagreement with git makes it miss, never answer for another repository."""
    directory = start
    while True:
        dot_git = os.path.join(directory, ".git")
        if os.path.isdir(dot_git):
            git_dir = dot_git
            break
        if os.path.isfile(dot_git):
            text = _read(dot_git) or ""
            if not text.startswith("gitdir: "):
                return None
            git_dir = os.path.join(directory, text[len("gitdir: ") :].strip())
            break
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent
    common = _read(os.path.join(git_dir, "commondir"))
    common_dir = os.path.join(git_dir, common.strip()) if common else git_dir
    return directory, os.path.realpath(git_dir), os.path.realpath(common_dir)


def _git(args: list[str], cwd: str) -> bytes | None:
    # The configuration files the full command sees: `GIT_CONFIG_GLOBAL` and its kin stay
    # (their values are part of the key through `environment`).
    env = _proc.scrubbed_environment(keep_git=KEPT_GIT_VARIABLES)
    try:
        result = _proc.run(["git", *args], cwd=cwd, env=env)
    except OSError:
        return None
    return result.stdout if result.returncode == 0 else None


def _last_values(listing: bytes) -> dict[str, str]:
    """`git config --list -z` as key -> value, the last value of a key winning as git's."""
    config: dict[str, str] = {}
    for record in listing.decode("utf-8", "surrogateescape").split("\0"):
        key, _, value = record.partition("\n")
        if key:
            config[key] = value
    return config


def _head(git_dir: str, common_dir: str) -> list[object]:
    """HEAD, the loose ref it names and the packed refs: what a commit or checkout changes."""
    head = _read(os.path.join(git_dir, "HEAD"))
    facts: list[object] = [head]
    if head is not None and head.startswith("ref: "):
        name = head[5:].strip()
        facts.append(_read(os.path.join(common_dir, name)))
    facts.append(path_signature(os.path.join(common_dir, "packed-refs")))
    return facts


def _read(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return handle.read(4096).decode("utf-8", "surrogateescape")
    except OSError:
        return None


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
