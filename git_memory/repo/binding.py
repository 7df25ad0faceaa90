"""Discover the worktree and compute RepositoryBinding@v1 (docs/contracts.md), with pygit2 only."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygit2

from git_memory.contracts.binding import DirectoryIdentity, RepositoryBinding
from git_memory.errors import GitMemoryError
from git_memory.paths import state_home
from git_memory.repo.memory_root import resolve_memory_root
from git_memory.repo.remote import public_identity
from git_memory.repo.secret import OriginSecret, load_or_create_secret

if TYPE_CHECKING:
    from git_memory.contracts.binding import RepositoryBinding


@dataclass(frozen=True)
class Worktree:
    """A discovered, non-bare worktree. Paths here are private: never put them in contracts."""

    root: Path
    git_dir: Path
    common_dir: Path
    repository: Any  # pygit2.Repository; typed loosely because pygit2 ships no stubs

    def config_value(self, key: str) -> str | None:
        """A git config value as git would resolve it for this worktree, or None."""
        try:
            value = self.repository.config[key]
        except (KeyError, ValueError):
            return None
        return str(value)

    @cached_property
    def state_home(self) -> Path:
        """The private state home for this invocation (precedence: docs/configuration.md).

        A home inside a worktree is refused: `git add -A` would commit transcript text and
        the origin secret.
        """
        configured = self.config_value("memory.home")
        home = state_home(configured)
        refuse_home_in_worktree(home, self.root, _home_source(configured))
        return home

    @cached_property
    def memory_root(self) -> str:
        """The memory root relative to the worktree root, POSIX style."""
        return resolve_memory_root(self.root, self.config_value("memory.root"))

    @property
    def memory_dir(self) -> Path:
        """Absolute path of the memory root."""
        return self.root / self.memory_root

    def origin_url(self) -> str | None:
        """The `origin` remote's URL, if any."""
        try:
            return str(self.repository.remotes["origin"].url)
        except (KeyError, ValueError):
            return None

    def secret(self) -> OriginSecret:
        """The origin secret of the state home, created on first use."""
        return load_or_create_secret(self.state_home)

    def binding(self) -> RepositoryBinding:
        """RepositoryBinding@v1 of this worktree."""
        # Imported here: commands that only read files never load the contract models
        # (pydantic: ~240 ms measured on a cold import).

        secret = self.secret()
        stat = os.stat(self.common_dir)
        return RepositoryBinding(
            repository_key=secret.hmac_hex("memory-repository", str(self.common_dir)),
            worktree_key=secret.hmac_hex("memory-worktree", str(self.root)),
            public_repository_identity=public_identity(self.origin_url()),
            root_realpath_digest=hashlib.sha256(str(self.root).encode()).hexdigest(),
            common_directory_identity=DirectoryIdentity(
                device=str(stat.st_dev), inode=str(stat.st_ino)
            ),
            memory_root=self.memory_root,
        )


def _home_source(configured: str | None) -> str:
    if os.environ.get("GIT_MEMORY_HOME"):
        return "GIT_MEMORY_HOME"
    return "memory.home" if configured else "the default state home"


def refuse_home_in_worktree(home: Path, root: Path, source: str) -> None:
    """`GM_STATE_HOME_IN_WORKTREE` when `home` lies inside this or any other worktree."""
    resolved = Path(os.path.realpath(home))
    inside = _is_within(resolved, root) or _enclosing_worktree(resolved) is not None
    if inside:
        raise GitMemoryError(
            "GM_STATE_HOME_IN_WORKTREE",
            f"the state home ({source}) is inside a git worktree",
            hint="point GIT_MEMORY_HOME or memory.home at a directory outside every checkout",
        )


def _enclosing_worktree(path: Path) -> Path | None:
    existing = next((p for p in (path, *path.parents) if p.exists()), None)
    if existing is None:
        return None
    try:
        found = pygit2.discover_repository(str(existing))
        workdir = None if found is None else pygit2.Repository(found).workdir
    except (pygit2.GitError, OSError):
        return None  # unreadable: not a worktree we can see, and nothing git would add
    if workdir is None:
        return None
    top = Path(os.path.realpath(workdir))
    return top if _is_within(path, top) else None


def discover_worktree(start: Path | str | None = None) -> Worktree:
    """Find the worktree containing `start` (default: cwd) or raise a `GM_` error."""
    cwd = Path(os.path.realpath(start or os.getcwd()))
    if not cwd.exists():
        # The user's own argument, shown as given (it is not put in any contract).
        raise GitMemoryError("GM_NOT_A_WORKTREE", f"no such directory: {str(start)!r}")
    found = pygit2.discover_repository(str(cwd))
    if found is None:
        raise GitMemoryError(
            "GM_NOT_A_WORKTREE",
            "not inside a git worktree",
            hint="run this inside a git repository, or pass --repository PATH",
        )
    repository = pygit2.Repository(found)
    git_dir = Path(os.path.realpath(repository.path))
    if repository.is_bare or repository.workdir is None:
        raise GitMemoryError(
            "GM_BARE_REPOSITORY",
            "this is a bare repository; git memory needs a worktree",
            hint="run it in a checkout (git worktree add …) of this repository",
        )
    common_dir = _common_dir(git_dir)
    if _is_within(cwd, git_dir) or _is_within(cwd, common_dir):
        raise GitMemoryError(
            "GM_INSIDE_GIT_DIR",
            "the current directory is inside the .git directory",
            hint="cd to the worktree root first",
        )
    root = Path(os.path.realpath(repository.workdir))
    return Worktree(root=root, git_dir=git_dir, common_dir=common_dir, repository=repository)


def _common_dir(git_dir: Path) -> Path:
    pointer = git_dir / "commondir"
    if pointer.is_file():
        return Path(os.path.realpath(git_dir / pointer.read_text().strip()))
    return git_dir


def _is_within(path: Path, parent: Path) -> bool:
    return path == parent or parent in path.parents
