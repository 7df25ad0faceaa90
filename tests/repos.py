"""Build real temporary git repositories with the `git` binary, as a user would (tests only)."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_COMMITTER_NAME": "Test Author",
    "GIT_COMMITTER_EMAIL": "author@example.com",
}


def git(cwd: Path, *args: str, check: bool = True, env: dict[str, str] | None = None) -> str:
    """Run git in `cwd` with a fixed identity; returns stdout."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    for key in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"):
        if key in os.environ:
            full_env[key] = os.environ[key]
    full_env.update(GIT_IDENTITY)
    full_env.update(env or {})
    result = subprocess.run(
        ["git", *args], cwd=cwd, env=full_env, capture_output=True, text=True, check=False
    )
    if check and result.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout


@dataclass
class Repo:
    """A temporary repository with a first commit."""

    root: Path

    def git(self, *args: str, check: bool = True) -> str:
        """Run git in this repository."""
        return git(self.root, *args, check=check)

    def write(self, relpath: str, text: str) -> Path:
        """Write a file in the worktree (parents created)."""
        path = self.root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def commit_all(self, message: str) -> str:
        """Stage everything and commit; returns the new commit id."""
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)
        return self.git("rev-parse", "HEAD").strip()

    def add_worktree(self, path: Path, branch: str) -> Repo:
        """Create a linked worktree on a new branch."""
        self.git("worktree", "add", "-q", "-b", branch, str(path))
        return Repo(path)

    def snapshot(self) -> dict[str, str]:
        """HEAD, every ref and the index bytes: what git memory must never change."""
        refs = self.git("for-each-ref", "--format=%(refname) %(objectname)")
        head = self.git("rev-parse", "HEAD").strip()
        head_ref = self.git("symbolic-ref", "-q", "HEAD", check=False).strip()
        git_dir = Path(self.git("rev-parse", "--absolute-git-dir").strip())
        index = git_dir / "index"
        return {
            "head": head,
            "head_ref": head_ref,
            "refs": refs,
            "index": index.read_bytes().hex() if index.exists() else "",
        }


def make_repo(path: Path, *, origin: str | None = None) -> Repo:
    """`git init` + one commit (README.md) at `path`."""
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    repo = Repo(path)
    repo.write("README.md", "# sample\n")
    repo.commit_all("initial commit")
    if origin:
        repo.git("remote", "add", "origin", origin)
    return repo
