"""The hook's lint reads the index and loose blobs itself, and asks git for everything else.

Each case compares what the hook's entry (`run_from_hook`, as the shim starts it, in git's
hook environment) prints with the full `git memory lint --staged`, and says whether a `git`
process was needed (the `subprocess` module loads only then).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from git_memory.repo.staged import adopt_hook_environment, parse_settings_listing
from tests.conftest import PROJECT_ROOT, run_cli
from tests.hooks.conftest import SECRET, commit, entry_text
from tests.hooks.stopped import commit_stopped
from tests.repos import Repo, git

PROBE = """
import json, sys
from git_memory.cli.lint_staged import run_from_hook
status = run_from_hook(None if sys.argv[1] == "-" else sys.argv[1])
sys.stdout.flush()
loaded = sorted(m for m in ("typing", "datetime", "base64", "dataclasses") if m in sys.modules)
print(json.dumps({"status": status, "git": "subprocess" in sys.modules, "loaded": loaded}),
      file=sys.stderr)
"""


def _from_hook(
    cwd: Path, listing: str | None = "", env: dict[str, str] | None = None
) -> tuple[str, int, bool]:
    """(stdout, exit status, whether git was started) of the hook's entry in `cwd`."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    for key in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_MEMORY_HOME"):
        if key in os.environ:
            base[key] = os.environ[key]
    base.update(PYTHONPATH=str(PROJECT_ROOT), GIT_INDEX_FILE=".git/index", GIT_PREFIX="")
    base.update(env or {})
    result = subprocess.run(
        [sys.executable, "-P", "-c", PROBE, "-" if listing is None else listing],
        cwd=cwd,
        env=base,
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(result.stderr.strip().splitlines()[-1])
    # What the hook's start-up does not pay for (docs/performance.md); starting git costs
    # `_proc`'s imports, typing among them.
    if not report["git"]:
        assert report["loaded"] == [], report
    return result.stdout, report["status"], report["git"]


def _staged(gm: Any, repo: Repo) -> None:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    repo.write(".memory/entries/leak.md", entry_text("leak", f"token {SECRET}\n"))
    repo.write(".memory/entries/clean.md", entry_text("clean", "Deploy with make.\n"))
    repo.git("add", "-A")


def _full(repo: Repo) -> tuple[str, int]:
    result = run_cli(["lint", "--staged", "--format", "text"], cwd=repo.root)
    return result.stdout, result.exit_code


def test_a_plain_repository_is_linted_without_starting_git(gm: Any, repo: Repo) -> None:
    _staged(gm, repo)
    stdout, status, started_git = _from_hook(repo.root)
    assert (stdout, status) == _full(repo)
    assert status == 1
    assert "GM_LINT_GITHUB_TOKEN" in stdout
    assert not started_git


def test_packed_blobs_and_a_split_index_are_read_by_git(gm: Any, repo: Repo) -> None:
    _staged(gm, repo)
    repo.git("gc", "-q")  # the staged blobs are packed now
    stdout, status, started_git = _from_hook(repo.root)
    assert (stdout, status) == _full(repo)
    assert status == 1
    assert started_git
    repo.git("update-index", "--split-index")
    assert _from_hook(repo.root)[:2] == (stdout, status)


def test_settings_the_shim_could_not_read_are_asked_of_git(gm: Any, repo: Repo) -> None:
    _staged(gm, repo)
    expected = _full(repo)
    for listing in (None, "memory.root docs\nstill the value\n", "core.worktree /elsewhere"):
        stdout, status, started_git = _from_hook(repo.root, listing)
        assert (stdout, status) == expected, listing
        assert started_git, listing


def test_the_shims_settings_choose_the_memory_root(gm: Any, repo: Repo) -> None:
    _staged(gm, repo)
    repo.git("config", "memory.root", "docs/memory")
    repo.write("docs/memory/entries/other.md", entry_text("other", f"key {SECRET}\n"))
    repo.git("add", "-A")
    listing = "memory.root docs/memory\n"
    stdout, status, started_git = _from_hook(repo.root, listing)
    assert (stdout, status) == _full(repo)
    assert "docs/memory/entries/other.md" in stdout
    assert not started_git


def test_a_linked_worktree_commit_is_linted_from_its_own_index(
    gm: Any, repo: Repo, tmp_path: Path
) -> None:
    assert gm(["init"], cwd=repo.root).exit_code == 0
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    repo.commit_all("memory root")
    linked = repo.add_worktree(tmp_path / "linked", "topic")
    linked.write(".memory/entries/leak.md", entry_text("leak", f"token {SECRET}\n"))
    linked.git("add", "-A")
    stdout, status, started_git = _from_hook(
        linked.root, env={"GIT_INDEX_FILE": str(repo.root / ".git/worktrees/linked/index")}
    )
    assert status == 1
    assert "GM_LINT_GITHUB_TOKEN" in stdout
    assert not started_git
    commit_stopped(linked, "GM_LINT_GITHUB_TOKEN")
    linked.write(".memory/entries/leak.md", entry_text("leak", "a clean note\n"))
    linked.git("add", "-A")
    assert commit(linked).returncode == 0


def test_a_sha256_repository_is_read_with_its_object_format(gm: Any, tmp_path: Path) -> None:
    root = tmp_path / "sha256"
    root.mkdir()
    git(root, "init", "-q", "--object-format=sha256")
    repo = Repo(root)
    repo.write(".memory/entries/leak.md", entry_text("leak", f"token {SECRET}\n"))
    repo.git("add", "-A")
    listing = "extensions.objectformat sha256\n"
    stdout, status, started_git = _from_hook(root, listing)
    assert status == 1
    assert "GM_LINT_GITHUB_TOKEN" in stdout
    assert not started_git
    # An object format this reader does not know is git's to read.
    assert _from_hook(root, "extensions.objectformat sha512\n")[2]


def test_the_hook_environment_keeps_what_the_shim_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    environ = {
        "GIT_DIR": "/elsewhere/.git",
        "GIT_WORK_TREE": "/elsewhere",
        "GIT_PREFIX": "sub/",
        "GIT_INDEX_FILE": ".git/index.lock",
        "GIT_CONFIG_PARAMETERS": "'user.name'='a'",
        "GIT_CONFIG_GLOBAL": "/home/me/.gitconfig",
        "GIT_CEILING_DIRECTORIES": "/home",
        "GIT_MEMORY_HOME": "/state",
        "GIT_MEMORY_INDEX_FILE": "/stale/index",
        "PATH": "/usr/bin",
    }
    monkeypatch.chdir(tmp_path)
    adopt_hook_environment(environ)
    assert environ == {
        "GIT_CONFIG_GLOBAL": "/home/me/.gitconfig",
        "GIT_CEILING_DIRECTORIES": "/home",
        "GIT_MEMORY_HOME": "/state",
        "GIT_MEMORY_INDEX_FILE": os.path.join(os.getcwd(), ".git/index.lock"),
        "PATH": "/usr/bin",
    }
    bare = {"GIT_MEMORY_INDEX_FILE": "/stale/index"}
    adopt_hook_environment(bare)
    assert bare == {}


def test_the_settings_listing_is_read_as_git_resolves_it() -> None:
    listing = "memory.root a\nmemory.home\nmemory.root b/c d\nmemory.hookverify true\n"
    assert parse_settings_listing(listing) == {"memory.root": "b/c d", "memory.home": ""}
    assert parse_settings_listing("") == {}
    assert parse_settings_listing("memory.root a\nsecond line\n") is None
