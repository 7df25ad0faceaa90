"""The memory files a commit will record, read as git stores them (no pygit2).

The pre-commit hook runs on every commit, so its start-up is a measured budget
(`tests/perf/bench_cli_startup.py`): importing pygit2 alone costs more than the whole budget,
and so would a `git` process per question. Run by the hook shim, the worktree is the hook's
directory (githooks(5)) and the settings are what the shim already asked `git config`; the
index and the loose blobs the commit records are read from git's files (`repo/git_files.py`).
Whatever those plain readings do not cover — another layout, a packed blob, a configuration
the shim could not read, a run outside the hook — is asked of git itself: `git rev-parse`
finds the worktree, `git config` the memory root, `git ls-files -s` lists the index entries
and one `git cat-file --batch` process reads the remaining blobs.
"""

from __future__ import annotations

import os

from git_memory.errors import GitMemoryError
from git_memory.paths import state_home_text
from git_memory.records import Record
from git_memory.repo import git_files
from git_memory.repo.memory_root import resolve_memory_root
from git_memory.repo.memory_tree import (
    GITLINK_MODE,
    REGULAR_MODE,
    SYMLINK_MODE,
    MemoryFile,
    StagedEntry,
    is_leftover_name,
    staged_memory_roots,
)

# Not `from typing import TYPE_CHECKING`: importing `typing` is a measured part of the
# pre-commit hook's start (docs/performance.md); type checkers take the name as True.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from collections.abc import Callable, MutableMapping

# What the hook keeps of git's environment: the user's configuration, not the repository git
# exported for the hook (the worktree is discovered from the current directory, as pygit2 does).
KEPT_GIT_VARIABLES = (
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_NOSYSTEM",
    "GIT_CEILING_DIRECTORIES",
)


# The settings the hook shim reads with one `git config --get-regexp` and passes on.
HOOK_SETTINGS = ("memory.root", "memory.home", "extensions.objectformat", "core.worktree")


class GitLayout(Record):
    """Where git keeps a worktree's index and objects, for reading them directly."""

    git_dir: str
    objects_dir: str
    oid_size: int


class StagedWorktree(Record):
    """A worktree as the staged lint needs it: its root, its memory root, the configured
    `memory.home` (None when unset) and, when its git files may be read directly, their
    layout.

    Paths are strings and the record a named tuple: pathlib's and dataclasses' imports would
    cost the hook's start-up.
    """

    root: str
    memory_root: str
    home_setting: str | None = None
    git: GitLayout | None = None

    @property
    def state_home(self) -> str:
        """The private state home, resolved and validated as every command does (not created)."""

        return state_home_text(self.home_setting)


def commit_known(worktree: StagedWorktree) -> Callable[[str], bool]:
    """Whether a 40-hex id names a commit of the repository, asked of git once per id (only
    a hex token the lint would otherwise block is asked about)."""
    answers: dict[str, bool] = {}

    def known(hex_id: str) -> bool:
        if hex_id not in answers:
            code, out, _ = run_git(["git", "cat-file", "-t", hex_id], cwd=worktree.root)
            answers[hex_id] = code == 0 and out.strip() == b"commit"
        return answers[hex_id]

    return known


def _git(
    args: list[str], cwd: str, index_path: str | None = None, input_bytes: bytes | None = None
) -> bytes:
    returncode, stdout, stderr = run_git(
        ["git", *args], cwd=cwd, index_path=index_path, input_bytes=input_bytes
    )
    if returncode != 0:
        message = stderr.decode("utf-8", "replace").strip() or f"git {args[0]} failed"
        raise GitMemoryError("GM_GIT_FAILED", message.splitlines()[-1])
    return stdout


def discover(start: str | None = None) -> StagedWorktree:
    """The worktree containing `start` (default: cwd), or the `GM_` error discovery raises."""
    cwd = os.path.realpath(start or os.getcwd())
    returncode, stdout, _ = run_git(
        ["git", "rev-parse", "--is-bare-repository", "--is-inside-git-dir", "--show-toplevel"],
        cwd=cwd,
    )
    answers = stdout.decode("utf-8", "surrogateescape").splitlines()
    if len(answers) >= 1 and answers[0] == "true":
        raise GitMemoryError(
            "GM_BARE_REPOSITORY",
            "this is a bare repository; git memory needs a worktree",
            hint="run it in a checkout (git worktree add …) of this repository",
        )
    if len(answers) >= 2 and answers[1] == "true":
        raise GitMemoryError(
            "GM_INSIDE_GIT_DIR",
            "the current directory is inside the .git directory",
            hint="cd to the worktree root first",
        )
    if returncode != 0 or len(answers) < 3:
        raise GitMemoryError(
            "GM_NOT_A_WORKTREE",
            "not inside a git worktree",
            hint="run this inside a git repository, or pass --repository PATH",
        )
    root = os.path.realpath(answers[2])
    return _worktree(root, _settings(root))


def hook_worktree(listing: str | None) -> StagedWorktree:
    """The worktree a pre-commit hook runs in: its directory (git starts hooks at the root of
    the worktree, githooks(5)), with the settings in `listing`, what the shim's
    `git config --get-regexp` printed (None when that failed). Any doubt — a value spread over
    several lines, no `.git` here — is settled by `discover`."""
    root = os.path.realpath(os.getcwd())
    settings = parse_settings_listing(listing) if listing is not None else None
    if settings is None:
        return discover(root)
    worktree = _worktree(root, settings)
    return worktree if worktree.git is not None else discover(root)


def parse_settings_listing(listing: str) -> dict[str, str] | None:
    """`HOOK_SETTINGS` from `git config --get-regexp` output (`key value` lines, the last value
    winning as git resolves them); None when a line is not one of them (a multi-line value)."""
    settings: dict[str, str] = {}
    for line in listing.split("\n"):
        key, _, value = line.partition(" ")
        if key in HOOK_SETTINGS:
            settings[key] = value
        elif line and key != "memory.hookverify":
            return None
    return settings


def _worktree(root: str, settings: dict[str, str]) -> StagedWorktree:
    memory_root = resolve_memory_root(root, settings.get("memory.root") or None)
    return StagedWorktree(
        root, memory_root, settings.get("memory.home") or None, _layout(root, settings)
    )


def _layout(root: str, settings: dict[str, str]) -> GitLayout | None:
    """The git files of the worktree at `root` when they are where git looks by default (no
    `core.worktree`, a `.git` of this very directory) and of an object format this reads."""
    oid_size = git_files.OID_SIZES.get(settings.get("extensions.objectformat", "sha1").lower())
    found = git_files.discover_git_dir(root)
    if oid_size is None or found is None or found[0] != root or "core.worktree" in settings:
        return None
    return GitLayout(found[1], os.path.join(found[2], "objects"), oid_size)


def _settings(root: str) -> dict[str, str]:
    """`HOOK_SETTINGS` as git resolves them (the last value wins), in one call.

    `-z` keeps each value exactly as configured, as the full command's config lookup does.
    """
    pattern = r"^(memory\.(root|home)|extensions\.objectformat|core\.worktree)$"
    _, listing, _ = run_git(["git", "config", "-z", "--get-regexp", pattern], cwd=root)
    settings: dict[str, str] = {}
    for record in listing.decode("utf-8", "surrogateescape").split("\0"):
        key, _, value = record.partition("\n")
        if key:
            settings[key] = value
    return settings


def adopt_hook_environment(environ: MutableMapping[str, str] | None = None) -> None:
    """Keep of git's hook environment what the shim's own scrub keeps (hooks/pre-commit): the
    configuration variables and `GIT_MEMORY_*`, and the index the commit records (a temporary
    one for `commit -a` and `commit <paths>`) as an absolute `GIT_MEMORY_INDEX_FILE`. Every
    git process started later then finds this repository itself, as `discover` expects."""
    target = os.environ if environ is None else environ
    index_file = target.get("GIT_INDEX_FILE", "")
    if index_file and not os.path.isabs(index_file):
        index_file = os.path.join(os.getcwd(), index_file)
    for name in [name for name in target if name.startswith("GIT_")]:
        if not name.startswith("GIT_MEMORY_") and name not in KEPT_GIT_VARIABLES:
            del target[name]
    target.pop("GIT_MEMORY_INDEX_FILE", None)
    if index_file:
        target["GIT_MEMORY_INDEX_FILE"] = index_file


def run_git(
    argv: list[str],
    *,
    cwd: str,
    index_path: str | None = None,
    input_bytes: bytes | None = None,
) -> tuple[int, bytes, bytes]:
    """Run git in the scrubbed environment, on the index at `index_path` when given: its exit
    status, output and error output."""
    # Start-up seam (docs/architecture.md): the hook reads git's files itself; only what they
    # do not cover starts git, and pays for `subprocess`.
    from git_memory import _proc  # noqa: PLC0415

    env = _proc.scrubbed_environment(keep_git=KEPT_GIT_VARIABLES)
    if index_path:
        env["GIT_INDEX_FILE"] = index_path
    result = _proc.run(argv, cwd=cwd, env=env, input_bytes=input_bytes)
    return result.returncode, result.stdout, result.stderr


def staged_files(
    root: os.PathLike[str] | str,
    memory_root: str,
    index_path: str | None,
    git: GitLayout | None = None,
) -> list[MemoryFile]:
    """Every index entry below the staged memory roots, with its blob: what the commit will
    contain.

    The roots are the configured one and every directory whose staged `index.json` declares a
    memory index (files staged under a previous `memory.root` are still linted). `relpath` is
    relative to the configured root for its files and worktree-relative (`root_prefix` set)
    for another root's; a temp file of ours staged anywhere else is a `leftover`. Gitlinks are
    reported, never read. `index_path` selects a temporary index (`git commit -a`,
    `git commit <paths>`); None reads the repository's own index. With `git`, the index and
    loose blobs are read from git's files, and git is asked only for the rest.
    """
    root = os.fspath(root)
    entries = _index_entries(root, index_path, git)
    configured = memory_root.rstrip("/")
    # The blobs below the configured root and below every directory with a staged index.json
    # (a root candidate, its index.json included) first, then those of the roots found.
    candidates = {configured} | {
        e.path[: -len("/index.json")]
        for e in entries
        if e.mode == REGULAR_MODE and e.path.endswith("/index.json")
    }
    readable = [
        e.oid
        for e in entries
        if e.mode not in (SYMLINK_MODE, GITLINK_MODE)
        and any(e.path.startswith(c + "/") for c in candidates)
    ]
    contents = _read_blobs(readable, root, index_path, git)
    roots = staged_memory_roots(entries, memory_root, contents.__getitem__)
    placed: list[tuple[StagedEntry, str, str]] = []  # (entry, relpath, root_prefix)
    found: list[MemoryFile] = []
    for entry in entries:
        owner = next((r for r in roots if entry.path.startswith(r + "/")), None)
        if owner is None:
            if is_leftover_name(entry.path.rsplit("/", 1)[-1]):
                found.append(MemoryFile(entry.path, None, kind="leftover"))
            continue
        placed.append(
            (entry, entry.path[len(owner) + 1 :], "" if owner == configured else owner + "/")
        )
    wanted = [e.oid for e, _, _ in placed if e.mode not in (SYMLINK_MODE, GITLINK_MODE)]
    contents.update(
        _read_blobs([oid for oid in wanted if oid not in contents], root, index_path, git)
    )
    for entry, relpath, prefix in placed:
        if entry.mode == SYMLINK_MODE:
            found.append(MemoryFile(relpath, None, kind="symlink", root_prefix=prefix))
        elif entry.mode == GITLINK_MODE:
            found.append(MemoryFile(relpath, None, kind="gitlink", root_prefix=prefix))
        else:
            found.append(MemoryFile(relpath, contents[entry.oid], root_prefix=prefix))
    return sorted(found, key=lambda f: (f.root_prefix, f.relpath))


def _index_entries(root: str, index_path: str | None, git: GitLayout | None) -> list[StagedEntry]:
    """Stage-0 entries of the index the commit records: read from the index file when `git`
    says where it is and its layout is a plain one, else listed by git."""
    if git is not None:
        path = index_path or os.path.join(git.git_dir, "index")
        read = git_files.index_entries(path, git.oid_size)
        if read is not None:
            return [StagedEntry(*entry) for entry in read]
    return _entries(_git(["ls-files", "--stage", "-z"], root, index_path))


def _entries(listing: bytes) -> list[StagedEntry]:
    """Stage-0 entries of `git ls-files --stage -z` (a conflicted path cannot be committed;
    git stops that commit itself)."""
    entries: list[StagedEntry] = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode_text, oid, stage = meta.decode("ascii").split(" ")
        if stage == "0":
            entries.append(StagedEntry(os.fsdecode(raw_path), int(mode_text, 8), oid))
    return entries


def _read_blobs(
    oids: list[str], root: str, index_path: str | None, git: GitLayout | None
) -> dict[str, bytes]:
    """The content of every blob: loose ones from the object store when `git` says where it
    is, the others from one `git cat-file --batch` process."""
    contents: dict[str, bytes] = {}
    unique = list(dict.fromkeys(oids))
    if git is not None:
        for oid in unique:
            blob = git_files.loose_blob(git.objects_dir, oid)
            if blob is not None:
                contents[oid] = blob
        unique = [oid for oid in unique if oid not in contents]
    if not unique:
        return contents
    out = _git(
        ["cat-file", "--batch"], root, index_path, "".join(f"{o}\n" for o in unique).encode()
    )
    position = 0
    for oid in unique:
        end = out.index(b"\n", position)
        header = out[position:end].decode("ascii").split(" ")
        if len(header) != 3 or header[1] != "blob":
            raise GitMemoryError("GM_GIT_FAILED", f"staged object {oid} cannot be read")
        size = int(header[2])
        contents[oid] = out[end + 1 : end + 1 + size]
        position = end + 1 + size + 1  # the content is followed by a newline
    return contents
