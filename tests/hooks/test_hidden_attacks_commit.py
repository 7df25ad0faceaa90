"""Issue 27 items 3-8 through `lint --staged` and a real `git commit` firing the installed
hook: one staged entry per sample, each refused with its own code; `index.json` text and
this machine's home directory too."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from git_memory.formats.index_json import render_index
from tests.hooks.conftest import commit, entry_text, head
from tests.hooks.stopped import commit_stopped
from tests.lint.attacks import BLOCKING, KEY, RANDOM
from tests.repos import Repo


def _slug(name: str) -> str:
    return name.replace("/", "-")


def test_every_sample_is_refused_by_lint_staged_and_the_hook(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    for name, (line, _code) in BLOCKING.items():
        slug = _slug(name)
        repo.write(f".memory/entries/{slug}.md", entry_text(slug, f"Notes.\n{line}\n"))
    repo.git("add", "-A")

    staged = gm(["lint", "--staged"], cwd=repo.root)
    assert staged.exit_code == 1
    before = head(repo)
    stopped = commit(repo)
    assert stopped.returncode != 0
    assert head(repo) == before
    for output in (staged.stdout, stopped.stderr):
        for name, (_line, code) in BLOCKING.items():
            path = f".memory/entries/{_slug(name)}.md"
            assert any(
                row.startswith(f"{path}:") and f"BLOCK {code} " in row
                for row in output.splitlines()
            ), (name, output)
        assert KEY not in output
        assert RANDOM not in output


def test_a_key_in_an_index_summary_is_refused_not_only_a_stale_index(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    summary = f"deploy token {RANDOM}"
    item = {"id": "deploy", "type": "work_fact", "scene": None, "priority": 60}
    repo.write(".memory/index.json", render_index(entries=[{**item, "summary": summary}]).decode())
    repo.git("add", "-A")

    staged = gm(["lint", "--staged"], cwd=repo.root)
    assert staged.exit_code == 1
    assert "BLOCK GM_LINT_HIGH_ENTROPY" in staged.stdout
    stopped = commit(repo)
    assert stopped.returncode != 0
    assert ".memory/index.json:" in stopped.stderr
    assert "GM_LINT_HIGH_ENTROPY" in stopped.stderr
    assert RANDOM not in stopped.stderr


def test_this_machines_home_blocks_the_commit_wherever_it_is(
    gm: Any, repo: Repo, bin_dir: Path
) -> None:
    assert gm(["hooks", "install"], cwd=repo.root).exit_code == 0
    home = os.path.expanduser("~")
    repo.write(".memory/entries/cache.md", entry_text("cache", f"The cache lives in {home}.\n"))
    repo.git("add", "-A")
    for args in (["lint"], ["lint", "--staged"]):
        linted = gm(args, cwd=repo.root)
        assert linted.exit_code == 1
        assert "BLOCK GM_LINT_ABSOLUTE_PATH this machine's home directory" in linted.stdout
    stderr = commit_stopped(repo, "BLOCK GM_LINT_ABSOLUTE_PATH")
    assert "bypass knowingly with: git commit --no-verify" in stderr
